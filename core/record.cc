// Game records: writing a game turn by turn in its notation, reading one back, and drawing a game that fits a partial record.
#include <algorithm>
#include <functional>
#include <optional>
#include <sstream>

#include "core/errors.h"
#include "core/game.h"
#include "core/text.h"

namespace boardlab {
namespace {

std::vector<std::string> words_of(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> out;
  for (std::string word; in >> word;) out.push_back(std::move(word));
  return out;
}

std::string who(const Game& game, Player p) {
  return p == kChancePlayer ? std::string("chance") : game.player_name(p);
}

// The record of `state` in full (viewer empty) or as `viewer` saw it.
std::string write_record(const State& state, std::optional<Player> viewer) {
  if (!state.starts_from_initial_state())
    throw InputError("record: this position was set up directly and has no game record");
  const Game& g = state.game();
  std::unique_ptr<State> replay = g.new_initial_state();
  const std::vector<Step> steps = state.history();
  std::string out;
  std::vector<std::string> turn;
  std::vector<Action> joint;
  const auto text = [&](const Step& step) {
    return viewer ? replay->action_seen_by(*viewer, step.player, step.action)
                  : replay->action_to_string(step.player, step.action);
  };
  const auto flush = [&](bool simultaneous) {
    if (turn.empty()) return;
    out += (out.empty() ? "" : " ") + g.format_turn(turn, simultaneous);
    turn.clear();
  };
  for (std::size_t i = 0; i < steps.size();) {
    const int number = replay->move_number();
    if (replay->is_simultaneous_node()) {
      flush(false);
      joint.assign(g.num_players(), kInvalidAction);
      for (int p = 0; p < g.num_players(); ++p, ++i) {
        turn.push_back(text(steps[i]));
        joint[steps[i].player] = steps[i].action;
      }
      replay->apply_joint(joint);
      flush(true);  // a round is a turn of its own
      continue;
    }
    turn.push_back(text(steps[i]));
    replay->apply(steps[i].action);
    ++i;
    if (replay->move_number() != number) flush(false);
  }
  flush(false);
  return out;
}

}  // namespace

std::string Game::format_turn(std::span<const std::string> steps, bool simultaneous) const {
  std::string out;
  for (const std::string& step : steps) out += (out.empty() ? "" : simultaneous ? "/" : "-") + step;
  return out;
}

std::vector<std::string> Game::split_turn(std::string_view turn, bool simultaneous) const {
  const char separator = simultaneous ? '/' : '-';
  std::vector<std::string> parts;
  std::string_view::size_type start = 0;
  while (true) {
    const auto end = turn.find(separator, start);
    parts.emplace_back(turn.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

std::string State::record() const { return write_record(*this, std::nullopt); }

std::string State::record_for(Player viewer) const {
  if (viewer != kPublicViewer && (viewer < 0 || viewer >= game().num_players()))
    throw InputError("record_for: the viewer must be a seat or kPublicViewer, got " + std::to_string(viewer));
  return write_record(*this, viewer);
}

std::unique_ptr<State> Game::load_record(std::string_view record) const {
  std::unique_ptr<State> state = new_initial_state();
  const std::vector<std::string> turns = words_of(record);
  std::vector<Action> joint;
  for (std::size_t t = 0; t < turns.size(); ++t) {
    const std::string where = "record turn " + std::to_string(t + 1) + " " + quote_input(turns[t]);
    if (state->is_terminal()) throw NotationError(where + ": the game is already over");
    const int number = state->move_number();
    if (state->is_simultaneous_node()) {
      const std::vector<std::string> parts = split_turn(turns[t], true);
      if (static_cast<int>(parts.size()) != num_players())
        throw NotationError(where + ": a simultaneous round needs one action per player (" +
                            std::to_string(num_players()) + "), separated by '/'");
      joint.assign(parts.size(), kInvalidAction);
      try {
        for (std::size_t p = 0; p < parts.size(); ++p)
          joint[p] = state->string_to_action(static_cast<Player>(p), parts[p]);
        state->apply_joint(joint);
      } catch (const InputError& e) {
        throw NotationError(where + ": " + e.what());
      }
      continue;
    }
    const Player mover = state->current_player();
    const std::vector<std::string> parts = split_turn(turns[t], false);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string sub = where + ", part " + std::to_string(i + 1) + " " + quote_input(parts[i]);
      if (parts[i].empty()) throw NotationError(where + ": empty part between separators");
      if (state->is_terminal()) throw NotationError(sub + ": the game ended before this part");
      if (state->move_number() != number)
        throw NotationError(sub + ": the turn already ended after " + std::to_string(i) + " part(s)");
      try {
        state->apply(state->string_to_action(parts[i]));
      } catch (const InputError& e) {
        throw NotationError(sub + ": " + e.what());
      }
    }
    if (!state->is_terminal() && state->move_number() == number)
      throw NotationError(where + ": the turn is incomplete, " + who(*this, mover) + " (player " +
                          std::to_string(mover) + ") must still move");
  }
  return state;
}

std::unique_ptr<State> Game::sample_record(std::string_view record, Player viewer, Rng& rng, int max_nodes) const {
  if (viewer != kPublicViewer && (viewer < 0 || viewer >= num_players()))
    throw InputError("sample_record: the viewer must be a seat or kPublicViewer, got " + std::to_string(viewer));
  // The record's words, split into the step texts each turn holds; a randomised depth-first
  // search then matches one step at a time, so a hidden choice that a later step
  // contradicts is undone rather than failing the whole draw.
  struct Turn {
    std::string word;
    std::vector<std::string> parts;  // for a simultaneous round: one per seat
  };
  std::vector<Turn> turns;
  for (std::string& word : words_of(record)) turns.push_back({std::move(word), {}});
  int nodes = 0;
  std::string deepest_error;
  std::size_t deepest = 0;
  std::vector<Action> candidates;
  // Returns a final state matching turns[t..] from `state`, at part `part` of turn t.
  std::function<std::unique_ptr<State>(const State&, std::size_t, std::size_t)> search =
      [&](const State& state, std::size_t t, std::size_t part) -> std::unique_ptr<State> {
    if (++nodes > max_nodes) return nullptr;
    const auto fail = [&](const std::string& why) -> std::unique_ptr<State> {
      if (t >= deepest) {
        deepest = t;
        deepest_error = "record turn " + std::to_string(t + 1) + (t < turns.size() ? " " + quote_input(turns[t].word) : "") +
                        ": " + why;
      }
      return nullptr;
    };
    if (t == turns.size()) return state.clone();
    if (state.is_terminal()) return fail("the game is already over");
    const bool simultaneous = state.is_simultaneous_node();
    if (part == 0) turns[t].parts = split_turn(turns[t].word, simultaneous);
    const std::vector<std::string>& parts = turns[t].parts;
    if (simultaneous) {
      if (static_cast<int>(parts.size()) != num_players()) return fail("a simultaneous round needs one action per player");
      // Every seat's matching actions, then their combinations in random order.
      std::vector<std::vector<Action>> per_seat(num_players());
      for (Player p = 0; p < num_players(); ++p) {
        for (Action a : state.legal_actions(p))
          if (state.action_seen_by(viewer, p, a) == parts[p]) per_seat[p].push_back(a);
        if (per_seat[p].empty()) return fail("no action of " + player_name(p) + " reads " + quote_input(parts[p]));
        std::shuffle(per_seat[p].begin(), per_seat[p].end(), rng);
      }
      std::vector<std::size_t> index(num_players(), 0);
      std::vector<Action> joint(num_players());
      while (true) {
        for (Player p = 0; p < num_players(); ++p) joint[p] = per_seat[p][index[p]];
        std::unique_ptr<State> next = state.clone();
        next->apply_joint(joint);
        if (auto found = search(*next, t + 1, 0)) return found;
        if (nodes > max_nodes) return nullptr;
        Player p = 0;
        while (p < num_players() && ++index[p] == per_seat[p].size()) index[p++] = 0;
        if (p == num_players()) return nullptr;
      }
    }
    const Player actor = state.current_player();
    candidates.clear();
    for (Action a : state.legal_actions(actor))
      if (state.action_seen_by(viewer, actor, a) == parts[part]) candidates.push_back(a);
    if (candidates.empty()) return fail("no legal action of " + who(*this, actor) + " reads " + quote_input(parts[part]));
    std::vector<Action> order = candidates;
    std::shuffle(order.begin(), order.end(), rng);
    for (Action a : order) {
      std::unique_ptr<State> next = state.clone();
      const int number = next->move_number();
      next->apply(a);
      const bool last = part + 1 == parts.size();
      const bool turn_ended = next->is_terminal() || next->move_number() != number;
      if (turn_ended != last) {
        if (!last) fail("the turn ended after " + std::to_string(part + 1) + " part(s)");
        else fail("the turn is incomplete");
        continue;
      }
      if (auto found = last ? search(*next, t + 1, 0) : search(*next, t, part + 1)) return found;
      if (nodes > max_nodes) return nullptr;
    }
    return nullptr;
  };
  std::unique_ptr<State> initial = new_initial_state();
  std::unique_ptr<State> found = search(*initial, 0, 0);
  if (found) return found;
  if (nodes > max_nodes)
    throw NotationError("sample_record: no game fitting the record was found in " + std::to_string(max_nodes) +
                        " tries");
  throw NotationError("sample_record: no game fits the record: " + deepest_error);
}

}  // namespace boardlab
