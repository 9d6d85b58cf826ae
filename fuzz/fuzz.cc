// The games the fuzz targets cover and random positions of them.
#include "fuzz/fuzz.h"

#include <unistd.h>

#include <cstdio>

#include "games/registry.h"

namespace boardlab::fuzz {

const std::vector<std::shared_ptr<const Game>>& fuzz_games() {
  static const std::vector<std::shared_ptr<const Game>> games = [] {
    std::vector<std::shared_ptr<const Game>> out;
    for (const GameSpec& spec : registered_games()) {
      out.push_back(load_game(spec.name));
      for (const std::string& preset : spec.presets) out.push_back(load_game(spec.name + "(" + preset + ")"));
    }
    return out;
  }();
  return games;
}

const Game& pick_game(std::uint8_t selector) { return *fuzz_games()[selector % fuzz_games().size()]; }

std::unique_ptr<State> random_state(const Game& game, int plies, std::uint64_t seed) {
  Rng rng(seed);
  std::unique_ptr<State> state = game.new_initial_state();
  std::vector<Action> joint;
  for (int i = 0; i < plies && !state->is_terminal(); ++i) {
    if (state->is_simultaneous_node()) {
      joint.assign(game.num_players(), kInvalidAction);
      for (Player p = 0; p < game.num_players(); ++p) joint[p] = state->random_legal_action(p, rng);
      state->apply_joint(joint);
    } else {
      state->apply(state->random_legal_action(rng));
    }
  }
  return state;
}

namespace {

// Removes its file as the process exits, after every use of its path: a function-local static
// is destroyed after everything registered before it was made, so the path outlives the
// callers (an atexit callback registered while the path was made would run after its string
// was gone, and the file stayed behind).
struct ScratchFile {
  std::string path;
  ~ScratchFile() { std::remove(path.c_str()); }
};

}  // namespace

const std::string& scratch_file(const std::string& stem, const std::string& extension) {
  static const ScratchFile file{"/tmp/" + stem + "_" + std::to_string(getpid()) + extension};
  return file.path;
}

}  // namespace boardlab::fuzz
