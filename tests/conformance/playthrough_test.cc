// Every game's golden playthroughs: a seeded game must play exactly as the checked-in file says.
//
// After an intended change of behaviour, regenerate the files and review the diff:
//   BOARDLAB_UPDATE_GOLDEN=1 build/tests/conformance_test --gtest_filter='*Playthrough*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/conformance/game_catalog.h"
#include "tests/conformance/playthrough.h"

namespace boardlab {
namespace {

class Playthrough : public ::testing::TestWithParam<int> {};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_P(Playthrough, MatchesTheGoldenFile) {
  const CatalogGame& entry = catalog_games()[GetParam()];
  const std::string actual = write_playthrough(*entry.game);
  ASSERT_EQ(write_playthrough(*entry.game), actual) << "a seeded playthrough must be deterministic";
  const char* update = std::getenv("BOARDLAB_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::filesystem::create_directories(std::filesystem::path(entry.playthrough_path).parent_path());
    std::ofstream(entry.playthrough_path, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(entry.playthrough_path))
      << entry.playthrough_path << " is missing: generate it with BOARDLAB_UPDATE_GOLDEN=1 (see this file's header)";
  const std::string golden = read(entry.playthrough_path);
  if (golden == actual) return;
  std::istringstream a(golden), b(actual);
  std::string line_a, line_b;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, line_a)), more_b = static_cast<bool>(std::getline(b, line_b));
    if (!more_a && !more_b) break;
    if (line_a != line_b || more_a != more_b)
      FAIL() << entry.game_string << " no longer plays as " << entry.playthrough_path << ": first difference at line "
             << line << "\n  golden: " << (more_a ? line_a : "(end)") << "\n  now:    " << (more_b ? line_b : "(end)");
  }
}

std::string test_name(const ::testing::TestParamInfo<int>& info) {
  return identifier(catalog_games()[info.param].game_string);
}

INSTANTIATE_TEST_SUITE_P(Games, Playthrough, ::testing::Range(0, static_cast<int>(catalog_games().size())), test_name);

}  // namespace
}  // namespace boardlab
