// Packing self-play games into stored columns, checking them by replay, snapshots, and rebuilding a position's state.
#include "nn/replay_storage.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.h"
#include "core/score_margin.h"
#include "core/steps.h"
#include "nn/replay_buffer.h"
#include "nn/train_batch.h"

namespace boardlab {
namespace {

constexpr std::uint32_t kMaxWeight = 0xffff;

void final_targets(const Game& game, const State& final, StoredGame& g) {
  const int seats = game.num_players();
  g.ownership.clear();
  g.score_margin.clear();
  if (game.traits().has_ownership) {
    const int cells = game.observation_shape().cells();
    std::vector<float> owner(static_cast<std::size_t>(cells));
    for (Player p = 0; p < seats; ++p) {
      final.ownership(p, owner);
      for (float o : owner) {
        if (o != 0 && o != 1 && o != -1) throw InputError(game.name() + "'s ownership of a cell is not -1, 0 or 1");
        g.ownership.push_back(static_cast<std::int8_t>(o));
      }
    }
  }
  if (game.traits().max_score_margin > 0) {
    g.score_margin.resize(static_cast<std::size_t>(seats));
    score_margins(final, g.score_margin);
  }
}

}  // namespace

ReplayLayout ReplayLayout::of(const Game& game) {
  ReplayLayout layout;
  layout.seats = game.num_players();
  layout.wide_actions = game.num_distinct_actions() > 0x10000;
  const auto keys = (static_cast<std::uint64_t>(game.max_game_length()) + 1) * static_cast<std::uint64_t>(layout.seats);
  if (keys > 0x100000000ULL)
    throw InputError("replay: " + game.to_string() + " declares games of up to " + std::to_string(game.max_game_length()) +
                     " steps for " + std::to_string(layout.seats) + " players; a target's ply and seat are stored in " +
                     "32 bits, which hold (max_game_length + 1) x players up to 2^32");
  layout.wide_targets = keys > 0x10000;
  return layout;
}

std::size_t StoredGame::bytes(bool with_policy) const {
  std::size_t total = actions.bytes() + returns.size() * sizeof(float) + sizeof truncated + target.bytes() +
                      root_value.size() * sizeof(std::int16_t);
  if (with_policy)
    total += policy_offset.size() * sizeof(std::uint32_t) + policy_action.bytes() + policy_weight.size() * sizeof(std::uint16_t);
  return total;
}

std::unique_ptr<State> StoredGame::state_at(const Game& game, std::uint32_t target_ply) const {
  const auto after = std::upper_bound(snapshot_step.begin(), snapshot_step.end(), target_ply);
  std::unique_ptr<State> state;
  std::size_t i = 0;
  if (after == snapshot_step.begin()) {
    state = game.new_initial_state();
  } else {
    const auto k = static_cast<std::size_t>(after - snapshot_step.begin() - 1);
    state = snapshot[k]->clone();
    i = snapshot_step[k];
  }
  std::vector<Action> joint;
  const auto action_at = [&](std::size_t s) { return static_cast<Action>(actions[s]); };
  while (i < target_ply) i += apply_node(*state, i, target_ply, action_at, joint);
  return state;
}

namespace {

// Target `t`'s search policy, sparse: weights relative to the largest, so that one action
// always keeps its weight whatever the number of actions (sampling normalizes them).
// `target` names it in errors.
void append_policy(StoredGame& g, const SelfPlayGame::Target& t, const std::string& target, std::uint32_t num_actions) {
  if (t.legal.size() != t.policy.size())
    throw InputError(target + " has " + std::to_string(t.policy.size()) + " policy values for " +
                     std::to_string(t.legal.size()) + " legal actions");
  float top = 0;
  for (float p : t.policy) {
    if (!std::isfinite(p)) throw InputError(target + " has a policy value that is not a finite number");
    top = std::max(top, p);
  }
  if (top <= 0) throw InputError(target + " has no positive policy value");
  for (std::size_t k = 0; k < t.legal.size(); ++k) {
    const Action a = t.legal[k];
    if (a < 0 || static_cast<std::uint32_t>(a) >= num_actions)
      throw InputError(target + " lists action " + std::to_string(a) + ", outside 0.." + std::to_string(num_actions - 1));
    const auto weight = static_cast<std::uint32_t>(std::lround(std::max(t.policy[k], 0.0f) / top * kMaxWeight));
    if (weight == 0) continue;  // sparse: actions the search gave (almost) nothing
    g.policy_action.push_back(static_cast<std::uint32_t>(a));
    g.policy_weight.push_back(static_cast<std::uint16_t>(weight));
  }
  if (g.policy_weight.size() > std::numeric_limits<std::uint32_t>::max())
    throw InputError("its policies hold more than 2^32 - 1 entries");
  g.policy_offset.push_back(static_cast<std::uint32_t>(g.policy_weight.size()));
}

}  // namespace

StoredGame encode_game(const Game& game, const SelfPlayGame& record) {
  const ReplayLayout layout = ReplayLayout::of(game);
  StoredGame g(layout);
  const int players = game.num_players();
  const auto num_actions = static_cast<std::uint32_t>(game.num_distinct_actions());
  if (static_cast<int>(record.returns.size()) != players)
    throw InputError("it has " + std::to_string(record.returns.size()) + " returns for " + std::to_string(players) + " players");
  for (double r : record.returns)
    if (!std::isfinite(r)) throw InputError("a return is not a finite number");
  // The last target could lie at ply steps.size(), for the last seat.
  const auto players64 = static_cast<std::uint64_t>(players);
  if ((record.steps.size() + 1) * players64 - 1 > g.target.max_value())
    throw InputError("it has " + std::to_string(record.steps.size()) + " steps; targets are stored up to ply " +
                     std::to_string((g.target.max_value() + std::uint64_t{1}) / players64 - 1) + " for " + game.to_string() +
                     ", whose max_game_length is " + std::to_string(game.max_game_length()));
  for (std::size_t i = 0; i < record.steps.size(); ++i) {
    const Action a = record.steps[i].action;
    if (a < 0 || static_cast<std::uint32_t>(a) >= num_actions)
      throw InputError("step " + std::to_string(i + 1) + " has action " + std::to_string(a) + ", outside 0.." +
                       std::to_string(num_actions - 1));
    g.actions.push_back(static_cast<std::uint32_t>(a));
  }
  g.returns.assign(record.returns.begin(), record.returns.end());
  g.truncated = record.truncated;

  g.policy_offset.push_back(0);
  const GameType type = game.type();
  int previous_ply = -1;
  for (const SelfPlayGame::Position& pos : record.positions) {
    const std::string where = "the position at ply " + std::to_string(pos.ply);
    if (pos.ply <= previous_ply || pos.ply > static_cast<int>(record.steps.size()))
      throw InputError(where + " is out of order or beyond the last of its " + std::to_string(record.steps.size()) +
                       " steps (positions are listed in order of play, one per ply)");
    previous_ply = pos.ply;
    if (pos.targets.empty()) throw InputError(where + " has no target");
    Player previous_player = -1;
    for (const SelfPlayGame::Target& t : pos.targets) {
      if (t.player < 0 || t.player >= players)
        throw InputError(where + " has a target for player " + std::to_string(t.player) + ", not a seat 0.." +
                         std::to_string(players - 1));
      if (t.player <= previous_player)
        throw InputError(where + " lists its targets' seats out of order or twice (" + std::to_string(t.player) + ")");
      previous_player = t.player;
      const std::string target = where + ", target of seat " + std::to_string(t.player);
      if (t.root_value && !std::isfinite(*t.root_value))
        throw InputError(target + " has a root value that is not a finite number");
      // On the network's scale, clamped: a search's mean stays within the return range.
      g.root_value.push_back(
          t.root_value ? static_cast<std::int16_t>(std::lround(
                             std::clamp(value_target(type, *t.root_value), -1.0f, 1.0f) * StoredGame::kRootValueScale))
                       : StoredGame::kNoRootValue);
      g.target.push_back(static_cast<std::uint32_t>(pos.ply) * static_cast<std::uint32_t>(players) +
                         static_cast<std::uint32_t>(t.player));
      if (!pos.full_search) {
        // A fast search's policy is not a training target: keep none.
        g.policy_offset.push_back(static_cast<std::uint32_t>(g.policy_weight.size()));
        continue;
      }
      append_policy(g, t, target, num_actions);
    }
  }
  return g;
}

SelfPlayGame decode_game(const Game& game, const StoredGame& g) {
  SelfPlayGame out;
  const GameType type = game.type();
  std::unique_ptr<State> state = game.new_initial_state();
  std::vector<Action> joint;
  const auto action_at = [&](std::size_t s) { return static_cast<Action>(g.actions[s]); };
  for (std::size_t i = 0; i < g.steps();) {
    const Player actor = state->current_player();
    const std::size_t taken = apply_node(*state, i, g.steps(), action_at, joint);
    // A simultaneous round's steps are the seats' in seat order; any other node has one actor.
    for (std::size_t k = 0; k < taken; ++k)
      out.steps.push_back({actor == kSimultaneousPlayer ? static_cast<Player>(k) : actor, action_at(i + k)});
    i += taken;
  }
  out.returns.assign(g.returns.begin(), g.returns.end());
  out.truncated = g.truncated;
  for (std::size_t t = 0; t < g.targets(); ++t) {
    const auto ply = static_cast<int>(g.target_ply(t));
    if (out.positions.empty() || out.positions.back().ply != ply)
      out.positions.push_back({.ply = ply, .targets = {}, .full_search = g.has_policy(t)});
    SelfPlayGame::Target target;
    target.player = g.target_player(t);
    for (std::uint32_t e = g.policy_offset[t]; e < g.policy_offset[t + 1]; ++e) {
      target.legal.push_back(static_cast<Action>(g.policy_action[e]));
      target.policy.push_back(static_cast<float>(g.policy_weight[e]) / static_cast<float>(kMaxWeight));
    }
    if (g.root_value[t] != StoredGame::kNoRootValue)
      target.root_value =
          value_from_network(type, static_cast<float>(g.root_value[t]) / StoredGame::kRootValueScale);
    out.positions.back().targets.push_back(std::move(target));
  }
  return out;
}

void check_and_snapshot(const Game& game, StoredGame& g, int snapshot_every, std::span<const Step> claimed) {
  const auto steps = g.steps();
  const std::size_t targets = g.targets();
  std::unique_ptr<State> state = game.new_initial_state();
  std::vector<Action> legal, joint;
  g.positions = 0;
  g.snapshot_step.clear();
  g.snapshot.clear();
  std::size_t t = 0, last_snapshot = 0;
  const auto action_at = [&](std::size_t s) { return static_cast<Action>(g.actions[s]); };
  for (std::size_t i = 0;;) {
    // At a node boundary, i steps played. Snapshots serve the targets from here on.
    if (t < targets && i - last_snapshot >= static_cast<std::size_t>(snapshot_every)) {
      g.snapshot_step.push_back(static_cast<std::uint32_t>(i));
      g.snapshot.push_back(state->clone());
      last_snapshot = i;
    }
    // The targets of a position here.
    const std::size_t first = t;
    for (; t < targets && g.target_ply(t) == i; ++t) {
      const Player p = g.target_player(t);
      const std::string where = "the target of seat " + std::to_string(p) + " at ply " + std::to_string(i);
      if (t > first && p <= g.target_player(t - 1)) throw InputError(where + ": a position's targets out of seat order");
      const Player actor = state->current_player();
      state->legal_actions(p, legal);
      if (!(actor == p || (actor == kSimultaneousPlayer && !legal.empty())))
        throw InputError(where + ": " + actor_name(game, actor) + " acts there, not " + seat_name(game, p));
      for (std::uint32_t e = g.policy_offset[t]; e < g.policy_offset[t + 1]; ++e)
        if (!std::binary_search(legal.begin(), legal.end(), static_cast<Action>(g.policy_action[e])))
          throw InputError(where + ": its policy weighs action " + std::to_string(g.policy_action[e]) +
                           ", which is not legal there");
    }
    if (t > first) ++g.positions;
    if (t < targets && g.target_ply(t) < i)
      throw InputError("the position at ply " + std::to_string(g.target_ply(t)) +
                       " is out of order or inside a simultaneous round");
    if (i == steps) break;
    const Player actor = state->current_player();
    if (actor == kTerminalPlayer)
      throw InputError("the game is over after step " + std::to_string(i) + " but has " + std::to_string(steps) + " steps");
    if (!claimed.empty()) check_step_players(game, actor, claimed, i);
    try {
      i += apply_node(*state, i, steps, action_at, joint);
    } catch (const InputError& e) {
      throw InputError("step " + std::to_string(i + 1) + " does not replay: " + e.what());
    }
  }
  if (t < targets) throw InputError("the position at ply " + std::to_string(g.target_ply(t)) + " lies beyond the last step");
  if (!state->is_terminal())
    throw InputError("it does not end: after its " + std::to_string(steps) + " steps " +
                     actor_name(game, state->current_player()) + " is to act");
  if (state->is_truncated() != g.truncated)
    throw InputError(g.truncated ? "it claims to be truncated, but its final state ended by the rules"
                                 : "its final state is truncated (by a cap that is not a rule), but it does not say so");
  final_targets(game, *state, g);
}

}  // namespace boardlab
