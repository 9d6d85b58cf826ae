// Game records: writing a game turn by turn in its notation, reading one back, and drawing a game that fits a partial record.
#include <algorithm>
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

const std::string kGoesOn(kTurnGoesOn);

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
  // Steps left unflushed are a turn that goes on: the mark says so, or the reader would take
  // them for a whole turn (and close it, where the notation leaves the closing step out).
  const bool goes_on = !turn.empty() && !replay->is_terminal();
  flush(false);
  return goes_on ? out + " " + kGoesOn : out;
}

// Why a turn read up to its last written step does not end as the record says, or "".
std::string turn_end_fault(State& state, int number, bool stops) {
  const auto going_on = [&] { return !state.is_terminal() && state.move_number() == number; };
  if (!stops && going_on() && state.implied_turn_end() != kInvalidAction) state.apply(state.implied_turn_end());
  if (stops && !going_on())
    return "the record ends with " + quote_input(kGoesOn) + " (the turn goes on), but this turn " +
           (state.is_terminal() ? "ended the game" : "is over");
  if (!stops && going_on()) {
    const Player mover = state.current_player();
    return "the turn is incomplete, " + who(state.game(), mover) + " (player " + std::to_string(mover) +
           ") must still move (a record that stops in the middle of a turn ends with " + quote_input(kGoesOn) + ")";
  }
  return "";
}

}  // namespace

RecordTurns record_turns(std::string_view record) {
  RecordTurns out{words_of(record), false};
  for (std::size_t t = 0; t < out.turns.size(); ++t) {
    if (out.turns[t] != kGoesOn) continue;
    if (t + 1 < out.turns.size())
      throw NotationError("record turn " + std::to_string(t + 1) + " " + quote_input(kGoesOn) + ": " +
                          quote_input(kGoesOn) + " may only end a record (it marks the last turn as going on)");
    if (t == 0) throw NotationError("record: " + quote_input(kGoesOn) + " (a turn that goes on) follows no turn");
    out.turns.pop_back();
    out.goes_on = true;
  }
  return out;
}

void close_record_turn(State& state, int number, bool stops, const std::string& where) {
  const std::string fault = turn_end_fault(state, number, stops);
  if (!fault.empty()) throw NotationError(where + ": " + fault);
}

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
  const RecordTurns read = record_turns(record);
  const std::vector<std::string>& turns = read.turns;
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
      if (read.goes_on && t + 1 == turns.size()) close_record_turn(*state, number, true, where);  // a round ends
      continue;
    }
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
    close_record_turn(*state, number, read.goes_on && t + 1 == turns.size(), where);
  }
  return state;
}

namespace {

// Game::sample_record's search: a randomised depth-first search that matches the record one
// step at a time, so a hidden choice that a later step contradicts is undone rather than
// failing the whole draw. It keeps its own stack, not the call stack: a record of a million
// steps (a long capped game, or hostile input) would otherwise overflow it.
class RecordSampler {
 public:
  RecordSampler(const Game& game, std::string_view record, Player viewer, Rng& rng, int max_nodes)
      : game_(game), viewer_(viewer), rng_(rng), max_nodes_(max_nodes), read_(record_turns(record)) {
    for (std::string& word : read_.turns) turns_.push_back({std::move(word), {}});
  }

  std::unique_ptr<State> run();

 private:
  // The record's words, split into the step texts each turn holds.
  struct Turn {
    std::string word;
    std::vector<std::string> parts;  // for a simultaneous round: one per seat
  };
  // A node of the search: a state at part `part` of turn t, and the children it has yet to try.
  struct Node {
    Node(std::unique_ptr<State> at, std::size_t turn, std::size_t part_of_turn)
        : state(std::move(at)), t(turn), part(part_of_turn) {}
    std::unique_ptr<State> state;
    std::size_t t = 0, part = 0;
    bool expanded = false;
    std::vector<Action> order;  // a turn's step: the matching actions in random order
    std::size_t next = 0;
    bool simultaneous = false;  // a round: every seat's matching actions, combined in turn
    std::vector<std::vector<Action>> per_seat;
    std::vector<std::size_t> index;
    bool exhausted = false;
  };

  void fail(std::size_t t, const std::string& why) {
    if (t < deepest_) return;
    deepest_ = t;
    deepest_error_ =
        "record turn " + std::to_string(t + 1) + (t < turns_.size() ? " " + quote_input(turns_[t].word) : "") + ": " + why;
  }
  bool last_turn(std::size_t t) const { return read_.goes_on && t + 1 == turns_.size(); }
  // Lists the node's matching actions in random order: false (the failure noted) where none match.
  bool expand(Node& node);
  bool expand_round(Node& node);
  bool expand_step(Node& node);
  // The node's next child to try, with its turn and part; null once none is left. The
  // node's last choice moves its own state into the child.
  std::unique_ptr<State> next_round_child(Node& node);
  std::unique_ptr<State> next_step_child(Node& node, std::size_t& child_t, std::size_t& child_part);

  const Game& game_;
  const Player viewer_;
  Rng& rng_;
  const int max_nodes_;
  RecordTurns read_;
  std::vector<Turn> turns_;
  int nodes_ = 0;
  std::string deepest_error_;
  std::size_t deepest_ = 0;
  std::vector<Action> candidates_;
};

std::unique_ptr<State> RecordSampler::run() {
  std::vector<Node> stack;
  stack.emplace_back(game_.new_initial_state(), 0, 0);
  while (!stack.empty()) {
    Node& node = stack.back();
    if (!node.expanded) {
      node.expanded = true;
      if (++nodes_ > max_nodes_) break;
      if (node.t == turns_.size()) return std::move(node.state);
      if (!expand(node)) stack.pop_back();
      continue;
    }
    // The next child to try, pushed last: `node` does not outlive the push.
    std::size_t child_t = node.t + 1, child_part = 0;
    std::unique_ptr<State> child =
        node.simultaneous ? next_round_child(node) : next_step_child(node, child_t, child_part);
    if (!child) {
      stack.pop_back();
      continue;
    }
    if (!node.state) {  // its last choice: the node becomes its child
      node = Node(std::move(child), child_t, child_part);
      continue;
    }
    stack.emplace_back(std::move(child), child_t, child_part);
  }
  if (nodes_ > max_nodes_)
    throw NotationError("sample_record: no game fitting the record was found in " + std::to_string(max_nodes_) +
                        " tries");
  throw NotationError("sample_record: no game fits the record: " + deepest_error_);
}

bool RecordSampler::expand(Node& node) {
  if (node.state->is_terminal()) {
    fail(node.t, "the game is already over");
    return false;
  }
  node.simultaneous = node.state->is_simultaneous_node();
  if (node.part == 0) turns_[node.t].parts = game_.split_turn(turns_[node.t].word, node.simultaneous);
  return node.simultaneous ? expand_round(node) : expand_step(node);
}

// Every seat's matching actions, then their combinations in random order.
bool RecordSampler::expand_round(Node& node) {
  const State& state = *node.state;
  const std::vector<std::string>& parts = turns_[node.t].parts;
  const int players = game_.num_players();
  if (static_cast<int>(parts.size()) != players || last_turn(node.t)) {
    fail(node.t, last_turn(node.t) ? "the record ends with " + quote_input(kGoesOn) +
                                         " (the turn goes on), but a round is a whole turn"
                                   : "a simultaneous round needs one action per player");
    return false;
  }
  node.per_seat.assign(players, {});
  for (Player p = 0; p < players; ++p) {
    for (Action a : state.legal_actions(p))
      if (state.action_seen_by(viewer_, p, a) == parts[p]) node.per_seat[p].push_back(a);
    if (node.per_seat[p].empty()) {
      fail(node.t, "no action of " + game_.player_name(p) + " reads " + quote_input(parts[p]));
      return false;
    }
    std::shuffle(node.per_seat[p].begin(), node.per_seat[p].end(), rng_);
  }
  node.index.assign(players, 0);
  return true;
}

bool RecordSampler::expand_step(Node& node) {
  const State& state = *node.state;
  const std::string& part = turns_[node.t].parts[node.part];
  const Player actor = state.current_player();
  candidates_.clear();
  for (Action a : state.legal_actions(actor))
    if (state.action_seen_by(viewer_, actor, a) == part) candidates_.push_back(a);
  if (candidates_.empty()) {
    fail(node.t, "no legal action of " + who(game_, actor) + " reads " + quote_input(part));
    return false;
  }
  node.order = candidates_;
  std::shuffle(node.order.begin(), node.order.end(), rng_);
  return true;
}

std::unique_ptr<State> RecordSampler::next_round_child(Node& node) {
  if (node.exhausted) return nullptr;
  const int players = game_.num_players();
  std::vector<Action> joint(players);
  for (Player p = 0; p < players; ++p) joint[p] = node.per_seat[p][node.index[p]];
  Player p = 0;
  while (p < players && ++node.index[p] == node.per_seat[p].size()) node.index[p++] = 0;
  node.exhausted = p == players;
  std::unique_ptr<State> child = node.exhausted ? std::move(node.state) : node.state->clone();
  child->apply_joint(joint);
  return child;
}

std::unique_ptr<State> RecordSampler::next_step_child(Node& node, std::size_t& child_t, std::size_t& child_part) {
  const std::size_t parts = turns_[node.t].parts.size();
  while (node.next < node.order.size()) {
    // The last choice here moves this node's own state: nothing comes back to it, and a
    // record with one reading per step (any record of a perfect-information game) then
    // keeps one state, not one per step (each holding its history, which made memory and
    // copying grow with the square of the length).
    const bool last_choice = node.next + 1 == node.order.size();
    std::unique_ptr<State> next = last_choice ? std::move(node.state) : node.state->clone();
    const int number = next->move_number();
    next->apply(node.order[node.next++]);
    if (node.part + 1 == parts) {
      const std::string fault = turn_end_fault(*next, number, last_turn(node.t));
      if (!fault.empty()) {
        fail(node.t, fault);
        continue;
      }
      return next;
    }
    if (next->is_terminal() || next->move_number() != number) {
      fail(node.t, "the turn ended after " + std::to_string(node.part + 1) + " part(s)");
      continue;
    }
    child_t = node.t;
    child_part = node.part + 1;
    return next;
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<State> Game::sample_record(std::string_view record, Player viewer, Rng& rng, int max_nodes) const {
  if (viewer != kPublicViewer && (viewer < 0 || viewer >= num_players()))
    throw InputError("sample_record: the viewer must be a seat or kPublicViewer, got " + std::to_string(viewer));
  return RecordSampler(*this, record, viewer, rng, max_nodes).run();
}

}  // namespace boardlab
