// Runs a fuzz target on random mutations of its seeds for a while: a stand-in for libFuzzer
// where clang cannot build the target (the checkpoint targets, see CMakeLists.txt). No
// coverage guidance; the figures it prints read like libFuzzer's for scripts/fuzz.sh.
//
// Usage: fuzz_random_TARGET SECONDS CRASH_DIR SEED_PATH...; the input under test is kept in
// CRASH_DIR/current while it runs, so a crash leaves it there; it is removed at the end.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A few of libFuzzer's mutations: flip, replace, insert, erase, copy a chunk, cut short.
std::string mutate(std::string s, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 8);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = s.empty() ? 0 : rng() % s.size();
    switch (rng() % 6) {
      case 0:
        if (!s.empty()) s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8)));
        break;
      case 1:
        if (!s.empty()) s[at] = static_cast<char>(rng());
        break;
      case 2: s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), static_cast<char>(rng())); break;
      case 3:
        if (!s.empty()) s.erase(at, 1 + rng() % 8);
        break;
      case 4:
        if (!s.empty()) s.insert(rng() % s.size(), s.substr(at, 1 + rng() % 16));
        break;
      default:
        if (!s.empty()) s.resize(rng() % s.size());
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SECONDS CRASH_DIR SEED_PATH...\n", argv[0]);
    return 2;
  }
  const double seconds = std::stod(argv[1]);
  const std::filesystem::path current = std::filesystem::path(argv[2]) / "current";
  std::vector<std::string> seeds{std::string()};
  for (int i = 3; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path))
        if (entry.is_regular_file()) seeds.push_back(read(entry.path()));
    } else if (std::filesystem::exists(path)) {
      seeds.push_back(read(path));
    }
  }
  std::mt19937_64 rng(std::random_device{}());
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t runs = 0;
  auto run = [&](const std::string& input) {
    std::ofstream(current, std::ios::binary) << input;
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    ++runs;
  };
  for (const auto& seed : seeds) run(seed);
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds)
    run(mutate(seeds[rng() % seeds.size()], rng));
  std::filesystem::remove(current);
  std::printf("stat::number_of_executed_units: %llu\n", static_cast<unsigned long long>(runs));
  return 0;
}
