// A player's view of a state: all that a bot or a search may know, so that none can cheat by construction.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"

namespace boardlab {

// What `viewer` knows at `state`: the public facts (whose turn, the turn number, the end),
// its own legal actions, observation and information key, the game as it saw it, and
// full states drawn consistently with all that. The true state stays private: for a
// hidden-information game nothing here reveals what the viewer may not know. A view is
// two pointers, valid while the state is alive and unchanged.
class PlayerView {
 public:
  PlayerView(const State& state, Player viewer);
  // The view of the player to move at `state` (a seat's turn; not chance, simultaneous or terminal).
  static PlayerView of_mover(const State& state);

  Player viewer() const { return viewer_; }
  const Game& game() const { return state_->game(); }
  Player current_player() const { return state_->current_player(); }
  bool is_terminal() const { return state_->is_terminal(); }
  int move_number() const { return state_->move_number(); }
  // The viewer is to act: the mover, or any seat at a simultaneous node.
  bool acts() const;

  void legal_actions(std::vector<Action>& out) const { state_->legal_actions(viewer_, out); }
  std::vector<Action> legal_actions() const { return state_->legal_actions(viewer_); }
  // A uniformly random legal action of the viewer.
  Action random_legal_action(Rng& rng) const;
  void observation(std::span<float> out) const { state_->observation(viewer_, out); }
  std::uint64_t information_key() const { return state_->information_key(viewer_); }
  // The game so far as the viewer saw it (State::record_for).
  std::string record() const { return state_->record_for(viewer_); }
  std::string action_to_string(Action action) const { return state_->action_to_string(viewer_, action); }
  Action string_to_action(std::string_view text) const { return state_->string_to_action(viewer_, text); }

  // A full state the viewer cannot tell apart from the true one, drawn at random: the true
  // state itself (a copy) when the game has perfect information.
  std::unique_ptr<State> sample(Rng& rng) const;

  // Whether the viewer, to move, makes a choice some other seat does not see in full: one of
  // its legal actions is shown to another seat otherwise than to itself (Stratego's setup,
  // where the opponent sees `?` for the Marshal placed). Such a choice no later move reveals
  // is a mixed strategy's to make (SearchConfig::concealed_moves). False at a simultaneous
  // round, and in perfect-information games.
  bool choice_concealed() const;

 private:
  const State* state_;
  Player viewer_;
};

}  // namespace boardlab
