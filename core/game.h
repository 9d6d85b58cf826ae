// The game API every boardlab game implements and every search, trainer, arena and binding uses.
//
// One interface serves every kind of game of shared/rules/, and a game says which kind it is
// (Game::type(), core/game_type.h) so that nothing downstream guesses:
// - sub-moves (Virus War's three per turn, Morabaraba's shot) are ordinary sequential
//   actions whose current_player() repeats; move_number() tells where a turn ends;
// - 2..6 players: returns() and values are per player;
// - chance: at a kChancePlayer node chance_outcomes() lists the outcomes with their
//   probabilities and apply() plays the drawn one, so a record reproduces every game;
// - simultaneous moves: at a kSimultaneousPlayer node every seat has legal actions
//   (legal_actions(p)), and apply_joint() takes one per seat;
// - hidden information: observation(p), information_key(p) and action_seen_by(p, ...)
//   show only what p may know, and sample_hidden(p, rng) deals a full state p cannot tell
//   apart from this one. Bots and the search get a PlayerView (core/player_view.h), never
//   the state itself, so they cannot cheat;
// - symmetries: permutations of cells, actions, players and observation planes, for
//   training augmentation, valid where symmetry_holds() says;
// - truncation: a cap that is not a rule (a move cap) ends the game as truncated.
// Errors on bad input throw InputError subclasses (core/errors.h) and leave the state as
// it was.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/diagram.h"
#include "core/game_parameters.h"
#include "core/game_type.h"
#include "core/rng.h"
#include "core/types.h"

namespace boardlab {

class State;

// Observation tensor shape: planes × rows × columns, the layout networks consume.
struct ObservationShape {
  int channels = 0;
  int height = 0;
  int width = 0;
  // The rows are rings: the last column neighbours the first (Morabaraba's three squares, each
  // a ring of 8 points). Networks then pad the columns circularly, not with zeros.
  bool wrap_columns = false;
  int size() const { return channels * height * width; }
  int cells() const { return height * width; }
};

// A symmetry of the game, acting on what a network sees of a position from its mover's
// point of view (the viewer's frame), so augmentation needs no game code: plane cell i moves
// to cell[i]; action a becomes action[a]; seat p becomes player[p] (empty: no seat moves);
// observation plane c becomes plane[c] (empty: planes stay).
struct Symmetry {
  std::string name;
  std::vector<int> cell;
  std::vector<Action> action;
  std::vector<Player> player;
  std::vector<int> plane;

  bool operator==(const Symmetry&) const = default;
  Player map_player(Player p) const { return player.empty() || p < 0 ? p : player[p]; }
  int map_plane(int c) const { return plane.empty() ? c : plane[c]; }
};

// Where each action lies on the observation's grid, for a convolutional policy head
// (network.spatial_policy): the head computes `planes` planes over the grid's cells, and
// action a's logit is entry slot[a] = plane · cells + cell of them, or, for slot[a] = -1, a
// board-wide output (a pass) computed from the whole board. The head shares its weights
// across cells, so an action should sit at the cell whose surroundings decide it (a
// placement at its cell, a square at its corner). Empty (planes 0): no layout.
struct ActionLayout {
  int planes = 0;
  std::vector<std::int32_t> slot;
  bool empty() const { return planes == 0; }
  int board_wide() const;
};

// What a game declares for the layers above it (the arena, training, its diagnostics), as
// data fixed when the game is made; nothing in the rules depends on it.
struct GameTraits {
  // Where the actions of the viewer's frame lie on the observation's grid; empty: such a
  // game's network has the linear policy head only.
  ActionLayout action_layout;
  // The action that gives up a turn where the game has one (Virus War's pass), else
  // kInvalidAction. Training diagnostics count it: a policy that learns to pass where
  // passing draws is a common way for self-play to stall.
  Action pass_action = kInvalidAction;
  // Uniformly random turns (State::move_number) that open each arena game unless the caller
  // says otherwise (ArenaOptions::opening_turns), so that deterministic players still play
  // different games. A game whose random turns decide games rather than vary them says
  // fewer (Squares: a random round may give one seat a 10x10 square, a quarter of the
  // board, and the other a 2x2).
  int arena_opening_turns = 2;
  // Auxiliary training targets (KataGo's ownership and score targets; nothing else depends
  // on them). Whether State::ownership is defined.
  bool has_ownership = false;
  // Whether terminal states have a final score per seat (State::scores): the largest
  // difference two seats' scores can have, which scales a score margin onto [-1, 1]; 0 for
  // a game without a score.
  double max_score_margin = 0;
  // Whether State::standing_returns is defined: a game whose players go out one by one and
  // whose draws are shared by those still in (Klopodavka, War). A network learns its values
  // relative to those returns (NetworkConfig::standings_baseline).
  bool has_standings = false;
};

// A chance outcome with its probability.
struct ChanceOutcome {
  Action action = kInvalidAction;
  double probability = 0;
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
  // to_string() without the observation parameters: games that differ only in what their
  // players observe are one game to their rules, and share a rating ladder.
  std::string rules_string() const;

  // What kind of game this is: dynamics, chance, information, utility and return range.
  virtual GameType type() const = 0;
  virtual int num_players() const = 0;
  // Size of the action space of every seat (and of chance); legal actions are a subset.
  virtual int num_distinct_actions() const = 0;
  virtual ObservationShape observation_shape() const = 0;
  // Upper bound on the number of steps in a game (sub-moves, passes, chance outcomes and
  // one step per seat in a simultaneous round): sizes buffers and bounds every game loop.
  virtual int max_game_length() const = 0;
  // How people call seat p ("X", "White"); "P0", "P1", ... by default.
  virtual std::string player_name(Player p) const;

  // The non-identity symmetries valid for training augmentation (may be empty).
  virtual const std::vector<Symmetry>& symmetries() const;
  // Whether symmetry `index` holds at `state` (say, not during Stratego's setup); always by default.
  virtual bool symmetry_holds(const State& state, int index) const;
  // The image of `state` under symmetry `index` (a state where the mover is the image of
  // state's mover). Default: the initial state with the image of every step replayed, which
  // is right when the initial state is symmetric; games whose symmetries move the start
  // (n-player start slots) override it. Throws InputError where the symmetry does not hold.
  virtual std::unique_ptr<State> apply_symmetry(const State& state, int index) const;

  // Observations are drawn from the viewer's point of view (e.g. Virus War turns the
  // board for O so each player's home corner is a1). A network's policy over the
  // viewer's frame maps back to real actions with these; identity by default.
  virtual Action action_to_view(Player viewer, Action action) const;
  virtual Action action_from_view(Player viewer, Action action) const;

  // What the game declares for the layers above it (GameTraits): data its constructor sets.
  const GameTraits& traits() const { return traits_; }

  virtual std::unique_ptr<State> new_initial_state() const = 0;

  // One turn in the game's notation from the texts of its steps (State::move_number groups
  // them): by default joined by '-', or by '/' for a simultaneous round (a text per seat).
  virtual std::string format_turn(std::span<const std::string> steps, bool simultaneous) const;
  // The step texts of one written turn: the inverse of format_turn. Throws NotationError.
  virtual std::vector<std::string> split_turn(std::string_view turn, bool simultaneous) const;

  // Reads a whole game in the game's notation (State::record) and returns its final state.
  // A malformed or illegal record throws NotationError with the turn number and the reason.
  virtual std::unique_ptr<State> load_record(std::string_view record) const;
  // A full state whose record as `viewer` saw it (State::record_for; kPublicViewer for the
  // public record) is `record`: the steps hidden from the viewer are drawn at random among
  // those that read the same to it. For perfect information this is load_record. Throws
  // NotationError when no game fits the record (or none is found in `max_nodes` tries).
  // Virtual for games whose hidden steps a step-by-step search cannot match in time (Stratego's
  // 40 hidden setup steps, constrained only by strikes long after): they sample the hidden
  // part from the record's constraints directly.
  virtual std::unique_ptr<State> sample_record(std::string_view record, Player viewer, Rng& rng,
                                               int max_nodes = 100000) const;

 protected:
  Game(std::string name, GameParameters params) : name_(std::move(name)), params_(std::move(params)) {}
  // Names of the parameters that change only what players observe (the network's input:
  // how much history the observation shows), never the legal actions, outcomes or notation;
  // the game's constructor lists them.
  std::vector<std::string> observation_parameters_;
  // Set by the game's constructor; the defaults suit a game without any of them.
  GameTraits traits_;

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

  // The seat to act (repeating for sub-moves), kChancePlayer, kSimultaneousPlayer or
  // kTerminalPlayer.
  virtual Player current_player() const = 0;
  bool is_terminal() const { return current_player() == kTerminalPlayer; }
  bool is_chance_node() const { return current_player() == kChancePlayer; }
  bool is_simultaneous_node() const { return current_player() == kSimultaneousPlayer; }
  // The game ended by a cap that is not one of its rules (a move cap): terminal, with the
  // returns of an undecided game, and to be told apart from a draw under the rules.
  virtual bool is_truncated() const { return false; }
  // Whether player p has left a game that goes on (a player knocked out of Klopodavka or War):
  // it acts no more and its return is settled (returns() gives it from then on). False in
  // games where every player plays to the end.
  virtual bool is_out([[maybe_unused]] Player p) const { return false; }
  // The index of the current turn: 0 at the start, advancing when a turn ends (a player's
  // run of sub-moves, a simultaneous round, a chance event, as the game defines its turns).
  // Records, the human player and the arena's random openings count turns with it.
  virtual int move_number() const = 0;

  // Legal actions of `player` here, ascending; empty for a player who does not act now.
  // At a chance node the outcomes are the legal actions of kChancePlayer. `out` is
  // cleared first and its capacity reused, so a loop that keeps one vector does not allocate.
  void legal_actions(Player player, std::vector<Action>& out) const { list_legal_actions(player, out); }
  std::vector<Action> legal_actions(Player player) const;
  // The legal actions of the one actor here (the mover or chance); none at a simultaneous
  // node (every seat acts there: ask per seat) or at the end.
  void legal_actions(std::vector<Action>& out) const { legal_actions(current_player(), out); }
  std::vector<Action> legal_actions() const { return legal_actions(current_player()); }
  // 1 for legal, 0 for illegal; out.size() == num_distinct_actions().
  void legal_mask(Player player, std::span<std::uint8_t> out) const;
  // The outcomes of a chance node with their probabilities (ascending actions, summing to
  // 1); throws InputError elsewhere.
  virtual void chance_outcomes(std::vector<ChanceOutcome>& out) const;
  std::vector<ChanceOutcome> chance_outcomes() const;
  // A random step of the one actor here: a uniformly random legal action of the mover, or
  // a chance outcome drawn with its probability. Throws at simultaneous and terminal nodes.
  Action random_legal_action(Rng& rng) const { return draw_random_action(rng); }
  // A uniformly random legal action of `player` (any node where it acts).
  Action random_legal_action(Player player, Rng& rng) const { return draw_random_action_of(player, rng); }

  // Plays one action of the mover, or the chance outcome. Throws IllegalActionError (state
  // unchanged) when it is not legal, with the reason.
  virtual void apply(Action action) = 0;
  // Plays one action per seat at a simultaneous node, legality judged before any of them.
  virtual void apply_joint(std::span<const Action> actions);

  // One value per player: every player's once the game is terminal; before, a player's that
  // is out (is_out), whose return is settled, and zeros for the others.
  void returns(std::span<double> out) const { write_returns(out); }
  std::vector<double> returns() const;

  // What player p may know, from p's point of view, as observation_shape() floats.
  virtual void observation(Player p, std::span<float> out) const = 0;
  // Who owns each cell now, as `viewer` sees it and in its observation frame (so that
  // symmetries map it as they map an observation plane): observation_shape().cells()
  // floats, +1 the viewer's, -1 another player's, 0 nobody's. Training uses the final
  // state's. For games whose traits() say has_ownership; the default throws InputError.
  virtual void ownership(Player viewer, std::span<float> out) const;
  // Each seat's final score, at a terminal state of a game whose traits() give a max_score_margin above 0;
  // the default throws InputError.
  virtual void scores(std::span<double> out) const;
  // What each seat would get if the game were drawn here among the players still in: the
  // settled returns of those out, the shared top ranks of the others. What a kill is worth
  // at once, while a draw stays likely. For games whose traits() say has_standings; the
  // default throws InputError.
  virtual void standing_returns(std::span<double> out) const;
  // A key of everything player p knows here (its information state, with perfect recall):
  // equal exactly for the states p cannot tell apart. Default: hash() for perfect
  // information; for imperfect information a digest of p's record (record_for) and
  // observation. Games may override it with a faster key.
  virtual std::uint64_t information_key(Player p) const;
  // A full state that player p cannot tell apart from this one, drawn at random (for
  // information-set search). Perfect-information games return a copy.
  virtual std::unique_ptr<State> sample_hidden(Player p, Rng& rng) const;

  virtual std::unique_ptr<State> clone() const = 0;
  // 64-bit hash of everything that decides the future of the game and everything
  // observation() and legal_actions() show: equal states hash equally whatever path led to
  // them, and states with one hash look alike to every seat (transpositions share a node,
  // and the evaluation cache a network's answer, by it).
  virtual std::uint64_t hash() const = 0;
  // Human-readable board and whose move it is (everything, hidden parts included).
  virtual std::string to_string() const = 0;
  // The state as a diagram for pictures (core/diagram.h), showing what `viewer` may see: a
  // seat, kPublicViewer, or kInvalidPlayer for everything (analysis, a finished game). None
  // for a game without a board to draw (the default): its pictures are its text.
  virtual std::optional<Diagram> diagram([[maybe_unused]] Player viewer) const { return std::nullopt; }

  // The game's notation for one action of `actor` (a seat, or kChancePlayer) here, and its
  // inverse. string_to_action throws NotationError for text that names no action; it does
  // not check legality (apply does).
  std::string action_to_string(Player actor, Action action) const { return action_text(actor, action); }
  Action string_to_action(Player actor, std::string_view text) const { return read_action(actor, text); }
  // The same for the one actor here (the mover, or chance).
  std::string action_to_string(Action action) const { return action_to_string(current_player(), action); }
  Action string_to_action(std::string_view text) const { return string_to_action(current_player(), text); }
  // What `viewer` (a seat, or kPublicViewer) learns of `actor`'s `action` played here, as
  // text. Default: everything (action_to_string); hidden-information games hide the parts
  // the viewer may not know.
  virtual std::string action_seen_by(Player viewer, Player actor, Action action) const;

  // Every step played since the initial state.
  virtual std::vector<Step> history() const = 0;
  // False for a position set up directly (from a diagram): it has no history from the
  // initial state, so it has no record.
  virtual bool starts_from_initial_state() const { return true; }
  // The whole game in the game's notation: turns separated by spaces, each written by
  // Game::format_turn, and kTurnGoesOn last when it stops in the middle of a turn.
  // Game::load_record reads it back to this state, sub-moves and all.
  std::string record() const;
  // The game as `viewer` saw it (action_seen_by); record_for(kPublicViewer) is the public record.
  std::string record_for(Player viewer) const;
  std::string public_record() const { return record_for(kPublicViewer); }
  // The step that closes a turn whose notation leaves it out (War's `end` after sub-moves,
  // which its format_turn omits), or kInvalidAction (the default: every step is written).
  // Game::load_record and sample_record play it when a written turn's steps are read and the
  // same turn still goes on.
  virtual Action implied_turn_end() const { return kInvalidAction; }

 protected:
  explicit State(const Game& game) : game_(&game) {}
  State(const State&) = default;
  State& operator=(const State&) = default;

  // What a game's state defines behind the calls of the same meaning above, each under a
  // name of its own, so that defining one hides none of the other forms of those calls.
  virtual void list_legal_actions(Player player, std::vector<Action>& out) const = 0;
  virtual void write_returns(std::span<double> out) const = 0;
  virtual std::string action_text(Player actor, Action action) const = 0;
  virtual Action read_action(Player actor, std::string_view text) const = 0;
  // Games override these two when they can sample faster than listing every action:
  // turn-based games the mover's step, simultaneous games a seat's action (random play and
  // rollouts take their rounds seat by seat).
  virtual Action draw_random_action(Rng& rng) const;
  virtual Action draw_random_action_of(Player player, Rng& rng) const;

 private:
  const Game* game_;
};

// The last word of a record that stops in the middle of a turn (after some of a player's
// sub-moves, as the web app's download saves it). A record ends on a turn's end otherwise,
// so that one cut short is refused, and a turn whose closing step the notation leaves out
// (War's `end`, State::implied_turn_end) is told apart from one that goes on.
inline constexpr std::string_view kTurnGoesOn = "+";

// What every record reader (Game::load_record, Game::sample_record and a game's own) shares,
// so that one rule holds for every game. The turns of `record` (its words) and whether its
// last turn goes on (a closing kTurnGoesOn, dropped); NotationError for the mark elsewhere.
struct RecordTurns {
  std::vector<std::string> turns;
  bool goes_on = false;
};
RecordTurns record_turns(std::string_view record);
// Closes a turn read from a record, begun at move_number() `number`, at its last written
// step: plays the implied end (State::implied_turn_end) unless `stops` (the record's last
// turn, marked as going on); then NotationError, starting with `where`, when the turn still
// goes on without `stops`, or ended with it.
void close_record_turn(State& state, int number, bool stops, const std::string& where);

// A drawn end: every seat's return equal (an undecided capped game is one too). Self-play
// and evaluation count draws by it, and the search's contempt (draw_value) applies to it.
inline bool is_draw(std::span<const double> returns) {
  for (double r : returns)
    if (r != returns.front()) return false;
  return true;
}

}  // namespace boardlab
