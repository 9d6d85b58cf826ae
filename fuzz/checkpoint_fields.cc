// Fuzz target: checkpoint metadata. Byte mutation rarely gets past the archive's checksums,
// so this target writes a well-formed archive whose every field the input chooses (kept,
// left out, or replaced by an integer, a string, a float or a tensor of its choice) around
// a real network, and loads it with load_checkpoint.
#include <torch/torch.h>

#include <cstring>
#include <fstream>
#include <string>

#include "core/errors.h"
#include "fuzz/fuzz.h"
#include "games/registry.h"
#include "nn/checkpoint.h"
#include "nn/model_impl.h"

using namespace boardlab;

namespace {

std::int64_t read_int64(fuzz::Input& input) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | input.byte();
  return static_cast<std::int64_t>(v);
}

std::string read_text(fuzz::Input& input) {
  std::string s(input.byte() % 64, '\0');
  for (char& c : s) c = static_cast<char>(input.byte());
  return s;
}

// The network every written archive holds: small, so that writing it stays fast.
constexpr NetworkConfig kNetwork{1, 4, 1, 4, false, false};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input input(data, size);
  static const std::shared_ptr<const Game> game = load_game("virus_war");
  static const Model model(kNetwork, *game, 1);
  const std::pair<const char*, c10::IValue> fields[] = {
      {"format_version", std::int64_t{1}},
      {"game", std::string("virus_war")},
      {"network_blocks", std::int64_t{kNetwork.blocks}},
      {"network_channels", std::int64_t{kNetwork.channels}},
      {"network_policy_channels", std::int64_t{kNetwork.policy_channels}},
      {"network_value_hidden", std::int64_t{kNetwork.value_hidden}},
      {"network_ownership_head", std::int64_t{0}},
      {"network_score_head", std::int64_t{0}},
      {"step", std::int64_t{2}},
      {"games", std::int64_t{4}},
      {"positions", std::int64_t{100}},
      {"seconds", 1.5},
      {"config_yaml", std::string("game: virus_war\n")},
      {"games_file_bytes", std::int64_t{10}},
      {"metrics_rows", std::int64_t{2}},
      {"trainer_steps", std::int64_t{2}},
  };
  torch::serialize::OutputArchive archive;
  for (const auto& [key, valid] : fields) {
    switch (input.byte() % 6) {
      case 0: archive.write(key, valid); break;
      case 1: break;  // left out
      case 2: archive.write(key, c10::IValue(read_int64(input))); break;
      case 3: archive.write(key, c10::IValue(read_text(input))); break;
      case 4: {
        double v = 0;
        const std::int64_t bits = read_int64(input);
        std::memcpy(&v, &bits, sizeof v);
        archive.write(key, c10::IValue(v));
        break;
      }
      default: archive.write(key, torch::zeros({input.byte() % 4, input.byte() % 6}, torch::kInt64)); break;
    }
  }
  // The random states: rows × columns of the input's choosing, or left out.
  const std::uint8_t rng_shape = input.byte();
  if (rng_shape != 255) archive.write("rng_states", torch::zeros({rng_shape % 8, rng_shape / 8 % 8}, torch::kInt64));
  // The network: the real one, left out, or a tensor where the archive should be.
  switch (input.byte() % 3) {
    case 0: {
      torch::serialize::OutputArchive model_archive;
      model.impl().net->save(model_archive);
      archive.write("model", model_archive);
      break;
    }
    case 1: break;
    default: archive.write("model", torch::zeros({input.byte() % 4}));
  }
  const std::string& path = fuzz::scratch_file("boardlab_fuzz_checkpoint_fields", ".pt");
  archive.save_to(path);
  try {
    load_checkpoint(path);
  } catch (const InputError&) {
  }
  return 0;
}
