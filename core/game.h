// The game API every boardlab game implements and every search, trainer and binding uses.
//
// One interface serves all six games of shared/rules/, so each part below exists for a
// rule somewhere:
// - sub-moves (Virus War's three per turn, Morabaraba's shot) are ordinary sequential
//   actions whose current_player() repeats: search and training need no notion of "turn";
// - 2..6 players (War, Klopodavka): returns() and values are per player;
// - simultaneous moves (squares): current_player() == kSimultaneousPlayer, each player's
//   legal actions come from legal_actions_for(p), and apply_joint() takes one per player;
// - hidden information (Stratego): observation(p) shows only what p may know, and
//   sample_hidden(p, rng) deals a full state consistent with it, for determinized search;
// - symmetries: permutations of board cells and actions, for training augmentation.
// Errors on bad input throw InputError subclasses (core/errors.h) and leave the state as
// it was.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/game_parameters.h"
#include "core/rng.h"
#include "core/types.h"

namespace boardlab {

class State;

// Observation tensor shape: planes × rows × columns, the layout networks consume.
struct ObservationShape {
  int channels = 0;
  int height = 0;
  int width = 0;
  int size() const { return channels * height * width; }
  int cells() const { return height * width; }
};

// A board symmetry as two permutations, so augmentation needs no game code:
// plane cell i moves to cell[i] (in every channel), action a becomes action[a].
struct Symmetry {
  std::string name;
  std::vector<int> cell;
  std::vector<Action> action;
};

class Game {
 public:
  virtual ~Game() = default;
  Game(const Game&) = delete;
  Game& operator=(const Game&) = delete;

  // Registry name, e.g. "virus_war".
  const std::string& name() const { return name_; }
  // Every parameter, defaults filled in.
  const GameParameters& parameters() const { return params_; }
  // Canonical text that load_game() reads back: "virus_war(strict=false)".
  std::string to_string() const { return game_string(name_, params_); }

  virtual int num_players() const = 0;
  // Size of the action space; legal actions are a subset at each state.
  virtual int num_distinct_actions() const = 0;
  virtual ObservationShape observation_shape() const = 0;
  // Upper bound on the number of actions in a game (sub-moves and passes included):
  // sizes buffers and replay records, and bounds every game loop.
  virtual int max_game_length() const = 0;
  // How people call seat p ("X", "White"); "P0", "P1", ... by default.
  virtual std::string player_name(Player p) const;
  virtual bool is_simultaneous() const { return false; }
  virtual bool has_hidden_information() const { return false; }
  // The non-identity symmetries valid for training augmentation (may be empty).
  virtual const std::vector<Symmetry>& symmetries() const;

  // Observations are drawn from the viewer's point of view (e.g. Virus War turns the
  // board for O so each player's home corner is a1). A network's policy over the
  // viewer's frame maps back to real actions with these; identity by default.
  virtual Action action_to_view(Player viewer, Action action) const;
  virtual Action action_from_view(Player viewer, Action action) const;

  virtual std::unique_ptr<State> new_initial_state() const = 0;

  // Reads a whole game in the game's notation (see State::record) and returns its final
  // state. A malformed or illegal record throws NotationError with the turn number.
  virtual std::unique_ptr<State> load_record(std::string_view record) const;

 protected:
  Game(std::string name, GameParameters params) : name_(std::move(name)), params_(std::move(params)) {}

 private:
  std::string name_;
  GameParameters params_;
};

class State {
 public:
  virtual ~State() = default;

  // The game this state belongs to; the game must outlive its states (states keep a
  // plain pointer so clone() stays cheap in search).
  const Game& game() const { return *game_; }

  // The player to act, repeating for sub-moves; kSimultaneousPlayer or kTerminalPlayer.
  virtual Player current_player() const = 0;
  bool is_terminal() const { return current_player() == kTerminalPlayer; }

  // Legal actions of the player to move, ascending. `out` is cleared first and its
  // capacity reused, so a loop that keeps one vector does not allocate.
  virtual void legal_actions(std::vector<Action>& out) const = 0;
  std::vector<Action> legal_actions() const;
  // At a simultaneous node, player p's legal actions; elsewhere those of the mover
  // for p == current_player() and none for anyone else.
  virtual void legal_actions_for(Player p, std::vector<Action>& out) const;
  // 1 for legal, 0 for illegal; out.size() == num_distinct_actions().
  void legal_mask(std::span<std::uint8_t> out) const;
  // A uniformly random legal action, for random players and rollouts. Games override it
  // when they can sample faster than listing every action.
  virtual Action random_legal_action(Rng& rng) const;

  // Plays one action of current_player(). Throws IllegalActionError (state unchanged)
  // when the action is not legal, with the reason.
  virtual void apply(Action action) = 0;
  // Plays one action per player at a simultaneous node.
  virtual void apply_joint(std::span<const Action> actions);

  // One value per player; defined once the game is terminal (zeros before).
  virtual void returns(std::span<double> out) const = 0;
  std::vector<double> returns() const;

  // What player p may know, from p's point of view, as observation_shape() floats.
  virtual void observation(Player p, std::span<float> out) const = 0;

  virtual std::unique_ptr<State> clone() const = 0;
  // 64-bit hash of everything that decides the future of the game: equal states hash
  // equally whatever path led to them.
  virtual std::uint64_t hash() const = 0;
  // Human-readable board and whose move it is.
  virtual std::string to_string() const = 0;

  // The game's notation for one action (state-dependent in general), and its inverse.
  // string_to_action throws NotationError for text that names no action; it does not
  // check legality (apply does).
  virtual std::string action_to_string(Action action) const = 0;
  virtual Action string_to_action(std::string_view text) const = 0;

  // Every action played since the initial state.
  virtual std::vector<Action> history() const = 0;
  // The whole game in the game's notation. Default: turns (runs of actions by the same
  // player) joined by '-', turns separated by spaces; Game::load_record reads it back.
  virtual std::string record() const;

  // For hidden-information games: a full state that player p cannot tell apart from
  // this one, drawn at random. Perfect-information games return a copy.
  virtual std::unique_ptr<State> sample_hidden(Player p, Rng& rng) const;

 protected:
  explicit State(const Game& game) : game_(&game) {}
  State(const State&) = default;
  State& operator=(const State&) = default;

 private:
  const Game* game_;
};

}  // namespace boardlab
