// Writing golden playthroughs.
#include "tests/conformance/playthrough.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "core/random_play.h"

namespace boardlab {
namespace {

// FNV-1a over raw bytes, printed as 16 hex digits.
std::string digest(const void* data, std::size_t size) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 0x100000001b3ULL;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

std::string legal_digest(const State& s, Player p) {
  const std::vector<Action> legal = s.legal_actions(p);
  return std::to_string(legal.size()) + ":" + digest(legal.data(), legal.size() * sizeof(Action)).substr(0, 8);
}

std::string observation_digest(const State& s, Player p) {
  std::vector<float> obs(s.game().observation_shape().size());
  s.observation(p, obs);
  return digest(obs.data(), obs.size() * sizeof(float)).substr(0, 8);
}

std::string actor_name(const Game& g, Player p) { return p == kChancePlayer ? "chance" : g.player_name(p); }

}  // namespace

std::string write_playthrough(const Game& game, std::uint64_t seed) {
  std::string out = "# Golden playthrough of " + game.to_string() + " (tests/conformance/playthrough.h)\n";
  out += "# type: " + game.type().describe() + "\n";
  std::vector<Action> joint;
  for (std::uint64_t g = 0; g < 2; ++g) {
    Rng rng(seed + g);
    std::unique_ptr<State> s = game.new_initial_state();
    out += "\ngame " + std::to_string(g + 1) + " (seed " + std::to_string(seed + g) + ")\n";
    while (!s->is_terminal()) {
      std::string line = "turn " + std::to_string(s->move_number()) + " ";
      std::string views = " | obs";
      for (Player p = 0; p < game.num_players(); ++p) views += " " + observation_digest(*s, p);
      if (s->is_simultaneous_node()) {
        std::string legal = " | legal";
        for (Player p = 0; p < game.num_players(); ++p) legal += " " + legal_digest(*s, p);
        const std::unique_ptr<State> before = s->clone();
        apply_random_step(*s, rng, joint);
        std::string texts;
        for (Player p = 0; p < game.num_players(); ++p)
          texts += (p ? "/" : "") + before->action_to_string(p, joint[p]);
        out += line + "all: " + texts + legal + views + "\n";
        continue;
      }
      const Player actor = s->current_player();
      const std::string legal = " | legal " + legal_digest(*s, actor);
      const Action a = s->random_legal_action(rng);
      out += line + actor_name(game, actor) + ": " + std::to_string(a) + " " + s->action_to_string(a) + legal + views +
             "\n";
      s->apply(a);
    }
    std::string returns;
    for (double r : s->returns()) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%g", returns.empty() ? "" : " ", r);
      returns += buf;
    }
    out += "returns " + returns + (s->is_truncated() ? " (truncated)" : "") + "\n";
    out += "record " + s->record() + "\n";
    if (!game.type().perfect_information()) out += "public record " + s->public_record() + "\n";
    out += "final position\n" + s->to_string() + "\n";
  }
  return out;
}

}  // namespace boardlab
