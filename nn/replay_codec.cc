// Writing and reading one stored game's columns, with the checks a reader owes its bytes.
#include "nn/replay_codec.h"

#include <cmath>

#include "core/errors.h"

namespace boardlab {

void ByteReader::fail(const std::string& why) const {
  throw InputError(source_ + " is corrupt: " + why + " (at byte " + std::to_string(pos_) + ")");
}

void put_stored_game(ByteWriter& w, const StoredGame& g) {
  w.put(static_cast<std::uint32_t>(g.steps()));
  w.put_column(g.actions);
  w.put(static_cast<std::uint32_t>(g.returns.size()));
  w.put_vector(g.returns);
  w.put(static_cast<std::uint8_t>(g.truncated));
  w.put(static_cast<std::uint32_t>(g.targets()));
  w.put_column(g.target);
  w.put_vector(g.policy_offset);
  w.put_column(g.policy_action);
  w.put_vector(g.policy_weight);
  w.put_vector(g.root_value);
}

StoredGame get_stored_game(ByteReader& r, const Game& game, bool with_root_values, const std::string& where) {
  StoredGame g(ReplayLayout::of(game));
  const int players = game.num_players();
  const auto num_actions = static_cast<std::uint32_t>(game.num_distinct_actions());
  r.get_column(g.actions, r.get<std::uint32_t>(where), where);
  r.get_vector(g.returns, r.get<std::uint32_t>(where), where);
  const auto truncated = r.get<std::uint8_t>(where);
  if (truncated > 1) r.fail(where + " has a truncation flag that is neither 0 nor 1");
  g.truncated = truncated == 1;
  const auto targets = r.get<std::uint32_t>(where);
  r.get_column(g.target, targets, where);
  r.get_vector(g.policy_offset, targets + std::size_t{1}, where);
  const std::uint32_t entries = g.policy_offset.back();
  r.get_column(g.policy_action, entries, where);
  r.get_vector(g.policy_weight, entries, where);
  if (with_root_values) r.get_vector(g.root_value, targets, where);
  else g.root_value.assign(targets, StoredGame::kNoRootValue);
  if (static_cast<int>(g.returns.size()) != players) r.fail(where + " has returns for the wrong number of players");
  for (float ret : g.returns)
    if (!std::isfinite(ret)) r.fail(where + " has a return that is not a finite number");
  if (g.policy_offset.front() != 0) r.fail(where + " has policy offsets out of order");
  // BLRPLAY2 has a policy for every target; later formats none for a fast search's.
  for (std::size_t t = 0; t < targets; ++t)
    if (g.policy_offset[t + 1] < g.policy_offset[t] || (!with_root_values && g.policy_offset[t + 1] == g.policy_offset[t]))
      r.fail(where + " has policy offsets out of order or a target without policy");
  for (std::size_t k = 0; k < entries; ++k)
    if (g.policy_action[k] >= num_actions || g.policy_weight[k] == 0) r.fail(where + " has a policy entry out of range");
  return g;
}

}  // namespace boardlab
