// boardlab.State: one position of a game at any kind of node (a seat's turn, chance, a simultaneous round, the end), with its moves, views, notation and records.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../common/pickling.h"
#include "arguments.h"
#include "bindings.h"
#include "core/errors.h"
#include "core/steps.h"
#include "core/text.h"
#include "games/registry.h"
#include "handles.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

using OptionalInt = std::optional<IntArg>;

// The player a function means when its player is left out: the one actor here (a seat,
// CHANCE_PLAYER, or TERMINAL_PLAYER at the end). At a simultaneous node every seat acts,
// so there is no such player and the caller must name one.
Player one_actor(const StateHandle& s, const char* what) {
  const Player p = s.state->current_player();
  if (p == kSimultaneousPlayer)
    throw InputError(std::string(what) + ": every seat acts at this simultaneous node; name the player (player=0, 1, ...)");
  return p;
}

Player actor_or_default(const StateHandle& s, const OptionalInt& player, const char* what) {
  return player ? actor_arg(*s.game, *player, what) : one_actor(s, what);
}

std::vector<Action> legal_actions(const StateHandle& s, const OptionalInt& player) {
  std::vector<Action> out;
  s.state->legal_actions(actor_or_default(s, player, "legal_actions"), out);
  return out;
}

py::array_t<std::int8_t> legal_actions_mask(const StateHandle& s, const OptionalInt& player) {
  const Player p = actor_or_default(s, player, "legal_actions_mask");
  py::array_t<std::int8_t> out(static_cast<py::ssize_t>(s.game->num_distinct_actions()));
  // int8 and uint8 share their layout for 0 and 1: the game fills the array in place.
  s.state->legal_mask(p, std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(out.mutable_data()),
                                                 static_cast<std::size_t>(out.size())));
  return out;
}

void apply_action(StateHandle& s, const IntArg& action) {
  if (s.state->is_simultaneous_node())
    throw IllegalActionError(
        "apply_action: every seat acts at once at this simultaneous node; use apply_actions([a0, a1, ...]) "
        "with one action per seat");
  s.state->apply(action_arg(*s.game, action, "apply_action", true));
}

void apply_actions(StateHandle& s, const std::vector<IntArg>& actions) {
  const Game& game = *s.game;
  const Player p = s.state->current_player();
  if (p != kSimultaneousPlayer) {
    if (!game.type().simultaneous())
      throw IllegalActionError("apply_actions: " + game.name() +
                               " has no simultaneous moves; play one action at a time with apply_action");
    throw IllegalActionError("apply_actions: this is not a simultaneous node (" +
                             std::string(p == kTerminalPlayer ? "the game is over"
                                         : p == kChancePlayer ? "chance is to act"
                                                              : game.player_name(p) + " is to move alone") +
                             "); use apply_action");
  }
  const int n = game.num_players();
  if (static_cast<int>(actions.size()) != n)
    throw IllegalActionError("apply_actions: a simultaneous round takes one action per seat (" + std::to_string(n) +
                             "), got " + std::to_string(actions.size()));
  std::vector<Action> joint(actions.size());
  for (int i = 0; i < n; ++i) {
    const std::string what = "apply_actions: " + game.player_name(i) + " (player " + std::to_string(i) + ")";
    joint[i] = action_arg(game, actions[i], what.c_str(), true);
  }
  s.state->apply_joint(joint);
}

py::list chance_outcomes(const StateHandle& s) {
  py::list out;
  for (const ChanceOutcome& o : s.state->chance_outcomes()) out.append(py::make_tuple(o.action, o.probability));
  return out;
}

py::array_t<float> observation_tensor(const StateHandle& s, const OptionalInt& player) {
  Player p;
  if (player) {
    p = seat_arg(*s.game, *player, "observation_tensor");
  } else {
    p = s.state->current_player();
    if (p < 0)
      throw InputError("observation_tensor: no one player is to move here (" +
                       std::string(p == kTerminalPlayer      ? "the game is over"
                                   : p == kChancePlayer      ? "a chance node"
                                                             : "a simultaneous node") +
                       "); name the viewer");
  }
  const ObservationShape shape = s.game->observation_shape();
  py::array_t<float> out({shape.channels, shape.height, shape.width});
  s.state->observation(p, std::span<float>(out.mutable_data(), static_cast<std::size_t>(shape.size())));
  return out;
}

StateHandle sample_hidden(const StateHandle& s, const IntArg& player, const std::optional<SeedArg>& seed) {
  const Player p = seat_arg(*s.game, player, "sample_hidden");
  Rng rng(seed_or_entropy(seed, "sample_hidden: seed"));
  return {s.game, s.state->sample_hidden(p, rng)};
}

// pyspiel's two forms of each: (player, action) and (action) for the one actor here.
std::string action_to_string(const StateHandle& s, const OptionalInt& player, const IntArg& action) {
  const Player p = actor_or_default(s, player, "action_to_string");
  return s.state->action_to_string(p, action_arg(*s.game, action, "action_to_string"));
}

Action string_to_action(const StateHandle& s, const OptionalInt& player, const TextArg& text) {
  const std::string& notation = text_arg(text, "string_to_action: text");
  return s.state->string_to_action(actor_or_default(s, player, "string_to_action"), notation);
}

std::string action_seen_by(const StateHandle& s, const IntArg& viewer, const IntArg& actor, const IntArg& action) {
  const Game& g = *s.game;
  return s.state->action_seen_by(viewer_arg(g, viewer, "action_seen_by"), actor_arg(g, actor, "action_seen_by"),
                                 action_arg(g, action, "action_seen_by"));
}

std::string repr(const StateHandle& s) {
  const Player p = s.state->current_player();
  const std::string node = p >= 0                     ? "player " + std::to_string(p) + " to move"
                           : p == kSimultaneousPlayer ? "simultaneous move"
                           : p == kChancePlayer       ? "chance node"
                           : s.state->is_truncated()  ? "terminal (truncated)"
                                                      : "terminal";
  return "<boardlab.State " + s.game->to_string() + " after " + std::to_string(s.state->history().size()) +
         " steps, " + node + ">";
}

// A State pickles as its game string and its steps: replaying them gives the same state
// (sub-moves, chance outcomes, simultaneous rounds, the end), and checks each as it goes.
py::tuple state_payload(const StateHandle& s) {
  if (!s.state->starts_from_initial_state())
    throw py::type_error("cannot pickle this boardlab.State: it was set up directly, without the history that "
                         "would restore it");
  py::tuple steps(s.state->history().size());
  std::size_t i = 0;
  for (const Step& step : s.state->history()) steps[i++] = py::make_tuple(step.player, step.action);
  return py::make_tuple(kPickleVersion, s.game->to_string(), steps);
}

StateHandle restore_state(const py::object& payload) {
  const PickleReader r("State", payload, 2);
  const auto text = r.get<std::string>(0, "the game string", "a str");
  std::shared_ptr<const Game> game;
  try {
    game = load_game(text);
  } catch (const InputError& e) {
    r.fail(std::string("the game string: ") + e.what());
  }
  const py::handle list = r.item(1);
  if (!py::isinstance<py::tuple>(list) && !py::isinstance<py::list>(list))
    r.fail("the history is of type " + PickleReader::type_name(list) + ", not a tuple of (player, action) pairs");
  std::vector<Step> steps;
  for (const py::handle item : py::reinterpret_borrow<py::sequence>(list)) {
    const std::string where = "the history's step " + std::to_string(steps.size() + 1);
    const auto pair = py::isinstance<py::tuple>(item) ? py::reinterpret_borrow<py::tuple>(item) : py::tuple();
    if (pair.size() != 2)
      r.fail(where + " is " + escape_input(py::repr(item).cast<std::string>()) + ", not a (player, action) pair");
    const auto check = [&](py::handle h, const char* what, long long low, long long high, const std::string& range) {
      int overflow = 0;
      const bool integer = PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr());
      const long long v = integer ? PyLong_AsLongLongAndOverflow(h.ptr(), &overflow) : 0;
      if (!integer || overflow != 0 || v < low || v > high)
        r.fail(where + ": the " + what + " " + escape_input(py::repr(h).cast<std::string>()) + " is not " + range);
    };
    const int seats = game->num_players(), actions = game->num_distinct_actions();
    check(pair[0], "player", kChancePlayer, seats - 1,
          "a seat 0.." + std::to_string(seats - 1) + " nor CHANCE_PLAYER (" + std::to_string(kChancePlayer) + ")");
    check(pair[1], "action", 0, actions - 1, "an action 0.." + std::to_string(actions - 1));
    steps.push_back({pair[0].cast<Player>(), pair[1].cast<Action>()});
  }
  StateHandle restored(game, game->new_initial_state());
  try {
    apply_steps(*restored.state, steps);
  } catch (const InputError& e) {
    r.fail(std::string("the history: ") + e.what());
  }
  return restored;
}

// Where the game stands and how it moves on: whose turn, the legal actions, playing them, the returns and views.
void bind_state_play(py::class_<StateHandle>& state) {
  state
      .def("game", [](const StateHandle& s) { return GameHandle{s.game}; })
      .def("current_player", [](const StateHandle& s) { return s.state->current_player(); },
           "The seat to act (it repeats for sub-moves), or CHANCE_PLAYER, SIMULTANEOUS_PLAYER or TERMINAL_PLAYER.")
      .def("is_terminal", [](const StateHandle& s) { return s.state->is_terminal(); })
      .def("is_chance_node", [](const StateHandle& s) { return s.state->is_chance_node(); },
           "Chance acts here: chance_outcomes() lists the outcomes, apply_action() plays the drawn one.")
      .def("is_simultaneous_node", [](const StateHandle& s) { return s.state->is_simultaneous_node(); },
           "Every seat acts at once here: legal_actions(player) per seat, apply_actions() with one action each.")
      .def("is_truncated", [](const StateHandle& s) { return s.state->is_truncated(); },
           "The game ended by a cap that is not a rule (a move cap), not by its rules.")
      .def("is_out", [](const StateHandle& s, const IntArg& p) { return s.state->is_out(seat_arg(*s.game, p, "is_out")); },
           py::arg("player"),
           "Whether `player` has left a game that goes on (knocked out of Klopodavka or War): it acts no more "
           "and its return is settled (returns() gives it).")
      .def("move_number", [](const StateHandle& s) { return s.state->move_number(); },
           "The index of the current turn: 0 at the start, one more when a turn (a run of sub-moves, a "
           "simultaneous round, a chance event) ends.")
      .def("legal_actions", &legal_actions, py::arg("player") = py::none(),
           "Legal actions, ascending, of `player` (a seat, or CHANCE_PLAYER; empty for one who does not act now); "
           "by default of the one actor here (name the player at a simultaneous node).")
      .def("legal_actions_mask", &legal_actions_mask, py::arg("player") = py::none(),
           "int8 array of num_distinct_actions() entries, 1 where legal_actions(player) holds the action.")
      .def("chance_outcomes", &chance_outcomes,
           "At a chance node, [(action, probability), ...] ascending, summing to 1; ValueError elsewhere.")
      .def("apply_action", &apply_action, py::arg("action"),
           "Plays one action of the mover, or the chance outcome; an illegal one raises IllegalActionError "
           "(a ValueError) with the reason and leaves the state unchanged.")
      .def("apply_actions", &apply_actions, py::arg("actions"),
           "Plays one action per seat ([a0, a1, ...]) at a simultaneous node, all judged before any is played.")
      .def("returns", [](const StateHandle& s) { return s.state->returns(); },
           "One value per player: all of them once the game is over; before, those of the players out "
           "(is_out), which are settled, and zeros for the others.")
      .def("observation_tensor", &observation_tensor, py::arg("player") = py::none(),
           "float32 array of Game.observation_shape(): what `player` (default: the mover) may know, "
           "from its point of view.")
      .def("information_key", [](const StateHandle& s, const IntArg& p) {
             return s.state->information_key(seat_arg(*s.game, p, "information_key"));
           },
           py::arg("player"),
           "A 64-bit key of everything `player` knows here: equal exactly for the states it cannot tell apart.")
      .def("sample_hidden", &sample_hidden, py::arg("player"), py::arg("seed") = py::none(),
           "A new State that `player` cannot tell apart from this one, its hidden part drawn at random "
           "(reproducibly with `seed`); a copy for perfect-information games.");
}

// Copies, the hash, and the state in words: notation, history, records.
void bind_state_text(py::class_<StateHandle>& state) {
  state
      .def("clone", &StateHandle::clone)
      .def("__copy__", &StateHandle::clone)
      .def("__deepcopy__", [](const StateHandle& s, const py::object&) { return s.clone(); }, py::arg("memo"))
      .def("hash", [](const StateHandle& s) { return s.state->hash(); },
           "64-bit hash of everything that decides the rest of the game.")
      // pyspiel's argument order: the player first, and only in the two-argument form.
      .def("action_to_string", &action_to_string, py::arg("player"), py::arg("action"),
           "The game's notation for `action` of `player` (a seat or CHANCE_PLAYER), as pyspiel's "
           "action_to_string(player, action).")
      .def("action_to_string",
           [](const StateHandle& s, const IntArg& action) { return action_to_string(s, std::nullopt, action); },
           py::arg("action"), "The game's notation for `action` of the one actor here (pyspiel's one-argument form).")
      .def("string_to_action", &string_to_action, py::arg("player"), py::arg("text"),
           "The action of `player` named by `text`, as pyspiel's string_to_action(player, text); raises "
           "NotationError (a ValueError) for text naming none. Does not check legality.")
      .def("string_to_action",
           [](const StateHandle& s, const TextArg& text) { return string_to_action(s, std::nullopt, text); },
           py::arg("text"), "The action of the one actor here named by `text` (pyspiel's one-argument form).")
      .def("action_seen_by", &action_seen_by, py::arg("viewer"), py::arg("actor"), py::arg("action"),
           "What `viewer` (a seat or PUBLIC_VIEWER) learns of `actor`'s `action` played here, as text.")
      .def("history",
           [](const StateHandle& s) {
             std::vector<Action> actions;
             for (const Step& step : s.state->history()) actions.push_back(step.action);
             return actions;
           },
           "Every action played so far (chance outcomes and every seat's action of a simultaneous round included).")
      .def("full_history",
           [](const StateHandle& s) {
             std::vector<std::pair<Player, Action>> steps;
             for (const Step& step : s.state->history()) steps.emplace_back(step.player, step.action);
             return steps;
           },
           "Every step so far as (player, action): the player is a seat or CHANCE_PLAYER; a simultaneous "
           "round is one step per seat, in seat order.")
      .def("record", [](const StateHandle& s) { return s.state->record(); },
           "The game so far in the game's notation, ending with '+' when it stops in the middle of a turn; "
           "Game.load_record() reads it back to this state.")
      .def("record_for", [](const StateHandle& s, const IntArg& p) {
             return s.state->record_for(viewer_arg(*s.game, p, "record_for"));
           },
           py::arg("player"),
           "The game so far as `player` (a seat, or PUBLIC_VIEWER) saw it: what it may not know reads as the game "
           "hides it. Game.sample_record() draws a full game that fits it.")
      .def("public_record", [](const StateHandle& s) { return s.state->public_record(); },
           "The game so far as a spectator saw it: record_for(PUBLIC_VIEWER).")
      .def("__str__", [](const StateHandle& s) { return s.state->to_string(); })
      // One line, unlike str(): it appears inside error messages and containers.
      .def("__repr__", &repr);
}

}  // namespace

void bind_state(py::module_& m) {
  py::class_<StateHandle> state(m, "State", "A position; apply_action() changes it in place, clone() copies it.");
  make_picklable(state, &state_payload, &restore_state);
  bind_state_play(state);
  bind_state_text(state);
  bind_state_diagram(state);
}

}  // namespace boardlab::python
