// Writes the seed corpus of every fuzz target from real files and the project's own writers.
//
// Usage: fuzz_make_seeds SOURCE_DIR OUT_DIR [checkpoint]. Inputs take each target's layout
// (selector bytes, then text): records come from the golden playthroughs, configs from
// configs/*.yaml and the full default dump, replay files, actor ranks' game messages and checkpoints from
// the writers training uses (ReplayBuffer::save, encode_game_message, save_checkpoint), so the seeds are what a run writes.
// With `checkpoint` it writes the checkpoint seed (not committed); without, every other target's.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "config/config.h"
#include "fuzz/fuzz.h"
#include "games/registry.h"
#include "nn/game_message.h"
#include "nn/replay_buffer.h"
#include "nn/train_config.h"
#ifdef BOARDLAB_FUZZ_CHECKPOINT
#include "nn/checkpoint.h"
#endif

using namespace boardlab;
namespace fs = std::filesystem;

namespace {

fs::path out_dir;

void write(const std::string& target, const std::string& name, const std::string& bytes) {
  const fs::path dir = out_dir / target;
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << bytes;
}

std::string selector(std::size_t game_index) { return std::string(1, static_cast<char>(game_index)); }

std::size_t index_of(const std::string& game_string) {
  const auto& games = fuzz::fuzz_games();
  for (std::size_t i = 0; i < games.size(); ++i)
    if (games[i]->to_string() == load_game(game_string)->to_string()) return i;
  throw std::runtime_error("no fuzz game is " + game_string);
}

void game_strings() {
  int n = 0;
  for (const auto& game : fuzz::fuzz_games()) write("game_string", std::to_string(n++), game->to_string());
  for (const GameSpec& spec : registered_games()) write("game_string", std::to_string(n++), spec.name);
  write("game_string", std::to_string(n++), " morabaraba ( move_cap = 60 , full_board_draw = true ) ");
}

void actions() {
  const auto& games = fuzz::fuzz_games();
  for (std::size_t i = 0; i < games.size(); ++i) {
    for (int plies : {0, 7, 40}) {
      auto state = fuzz::random_state(*games[i], plies, 1);
      if (state->is_terminal()) continue;
      const Player actor = state->current_player();
      const std::vector<Action> legal = state->legal_actions();
      const std::string head = selector(i) + static_cast<char>(plies) + '\x01' + static_cast<char>(actor);
      for (std::size_t k = 0; k < legal.size() && k < 3; ++k)
        write("action", std::to_string(i) + "_" + std::to_string(plies) + "_" + std::to_string(k),
              head + state->action_to_string(legal[k]));
    }
  }
}

// The "record" lines of the golden playthroughs, read in full, publicly and by seat 0.
void records(const fs::path& source) {
  int n = 0;
  for (const auto& entry : fs::recursive_directory_iterator(source / "games")) {
    if (entry.path().parent_path().filename() != "playthroughs") continue;
    std::ifstream in(entry.path());
    std::string line, game;
    while (std::getline(in, line)) {
      const std::string header = "# Golden playthrough of ";
      if (line.starts_with(header)) game = line.substr(header.size(), line.find(' ', header.size()) - header.size());
      if (!line.starts_with("record ")) continue;
      const std::string record = line.substr(7);
      for (int mode = 0; mode < 3; ++mode)
        write("record", std::to_string(n++), selector(index_of(game)) + static_cast<char>(mode) + record);
    }
  }
}

void player_specs() {
  const char* specs[] = {"random", "uct:100", "uct:50(rollouts=2)", "mcts(simulations=8)",
                         "mcts(algorithm=gumbel,simulations=16,gumbel_considered=4)",
                         "mcts(algorithm=puct,c_puct=1.5,dirichlet_epsilon=0.25,rollouts=3,transpositions=true)",
                         "uct('50')", "mcts(algorithm=\"puct\",simulations=8)"};
  int n = 0;
  for (const char* spec : specs) {
    write("player_spec", std::to_string(n), selector(n % 2 * 2) + spec);
    ++n;
  }
}

void configs(const fs::path& source) {
  for (const auto& entry : fs::directory_iterator(source / "configs")) {
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    write("config", entry.path().filename().string(), text.str());
  }
  write("config", "defaults.yaml", default_train_config_yaml());
  // --set: every key at its default, a few to a line.
  TrainConfig t;
  Config c(t);
  std::string lines;
  int n = 0;
  for (const ConfigKey& key : c.keys()) {
    std::string value;
    const ConfigValue v = key.get();
    if (const bool* b = std::get_if<bool>(&v)) value = *b ? "true" : "false";
    else if (const auto* i = std::get_if<std::int64_t>(&v)) value = std::to_string(*i);
    else if (const double* d = std::get_if<double>(&v)) value = std::to_string(*d);
    else if (const auto* s = std::get_if<std::string>(&v)) value = *s;
    else {
      for (const auto& item : std::get<std::vector<std::string>>(v)) value += (value.empty() ? "" : ", ") + item;
      value = "[" + value + "]";
    }
    lines += key.path + "=" + value + "\n";
    if (++n % 8 == 0) {
      write("set", std::to_string(n / 8), lines);
      lines.clear();
    }
  }
  if (!lines.empty()) write("set", "last", lines);
}

// A random game recorded as self-play records it: every step, a policy at every third
// position (uniform over the legal actions), a value-only target at the others.
SelfPlayGame random_record(const Game& game, Rng& rng) {
  SelfPlayGame record;
  auto state = game.new_initial_state();
  while (!state->is_terminal()) {
    const Player p = state->current_player();
    if (p >= 0) {
      SelfPlayGame::Position position;
      position.ply = static_cast<int>(record.steps.size());
      position.full_search = record.steps.size() % 3 == 0;
      SelfPlayGame::Target target;
      target.player = p;
      target.legal = state->legal_actions();
      target.policy.assign(target.legal.size(), 1.0f / static_cast<float>(target.legal.size()));
      target.root_value = 0.25f;
      position.targets.push_back(std::move(target));
      record.positions.push_back(std::move(position));
    }
    if (p == kSimultaneousPlayer) {  // a round: each seat's random action, in seat order
      std::vector<Action> joint;
      for (Player seat = 0; seat < game.num_players(); ++seat) {
        const std::vector<Action> legal = state->legal_actions(seat);
        joint.push_back(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
        record.steps.push_back({seat, joint.back()});
      }
      state->apply_joint(joint);
      continue;
    }
    const Action a = state->random_legal_action(rng);
    record.steps.push_back({p, a});
    state->apply(a);
  }
  record.returns = state->returns();
  record.truncated = state->is_truncated();
  return record;
}

void replays() {
  const auto& games = fuzz::fuzz_games();
  for (std::size_t i = 0; i < games.size(); ++i) {
    const Game& game = *games[i];
    ReplayBuffer buffer(game, 1 << 20);
    Rng rng(7);
    for (int g = 0; g < 2; ++g) buffer.add(random_record(game, rng));
    const fs::path dir = out_dir / "replay";
    fs::create_directories(dir);
    buffer.save((dir / (std::to_string(i) + ".bin")).string());
  }
}

// An actor rank's messages: a game, and the last message (no game), of each game.
void game_messages() {
  const auto& games = fuzz::fuzz_games();
  for (std::size_t i = 0; i < games.size(); ++i) {
    Rng rng(11);
    const SelfPlayGame record = random_record(*games[i], rng);
    const ActorReport report{.network_version = 20, .searches = 300, .simulations = 4800, .inference_batches = 40,
                             .inference_positions = 1200};
    write("game_message", std::to_string(i) + ".msg", selector(i) + encode_game_message(*games[i], report, &record));
    write("game_message", std::to_string(i) + "_last.msg", selector(i) + encode_game_message(*games[i], report, nullptr));
  }
}

#ifdef BOARDLAB_FUZZ_CHECKPOINT
void checkpoints() {
  const auto game = load_game("virus_war");
  CheckpointInfo info;
  info.game = game->to_string();
  info.network = NetworkConfig{1, 4, 1, 4, false, false};
  info.step = 2;
  info.config_yaml = "game: virus_war\n";
  info.rng_states = {{1, 2, 3, 4}, {5, 6, 7, 8}};
  info.games_file_bytes = 100;
  info.metrics_rows = 2;
  const Model model(info.network, *game, 1);
  fs::create_directories(out_dir / "checkpoint");
  save_checkpoint((out_dir / "checkpoint" / "tiny.pt").string(), model, nullptr, info);
}
#endif

// checkpoint_fields (fuzz/checkpoint_fields.cc): every field valid (all zeros), and a few
// left out or replaced.
void checkpoint_fields() {
  write("checkpoint_fields", "valid", std::string(40, '\0'));
  write("checkpoint_fields", "no_model", std::string(17, '\0') + '\x01');
  write("checkpoint_fields", "rng_3x3", std::string(16, '\0') + '\x1b');
  write("checkpoint_fields", "no_game", std::string(1, '\0') + '\x01' + std::string(20, '\0'));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: fuzz_make_seeds SOURCE_DIR OUT_DIR [checkpoint]\n";
    return 2;
  }
  out_dir = argv[2];
  if (argc > 3 && std::string(argv[3]) == "checkpoint") {
#ifdef BOARDLAB_FUZZ_CHECKPOINT
    checkpoints();
    return 0;
#else
    std::cerr << "fuzz_make_seeds: built without LibTorch\n";
    return 2;
#endif
  }
  game_strings();
  actions();
  records(argv[1]);
  player_specs();
  configs(argv[1]);
  replays();
  game_messages();
  checkpoint_fields();
  return 0;
}
