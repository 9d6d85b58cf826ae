// boardlab.Game: a game's constants, what kind of game it is (GameType), its symmetries and the states it makes.
#include <pybind11/stl.h>

#include <string>

#include "../common/pickling.h"
#include "arguments.h"
#include "bindings.h"
#include "core/errors.h"
#include "games/registry.h"
#include "handles.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

template <class E>
E enum_field(const PickleReader& r, std::size_t i, const char* name, int count) {
  const int v = r.get<int>(i, name, "an int");
  if (v < 0 || v >= count) r.fail(std::string(name) + " is " + std::to_string(v) + ", not 0.." + std::to_string(count - 1));
  return static_cast<E>(v);
}

void bind_game_type(py::module_& m) {
  py::class_<GameType> type(m, "GameType",
                            "What kind of game a game is (Game.type()): dynamics, chance, information, utility and "
                            "the range and sum of its returns.");
  py::enum_<Dynamics> dynamics(type, "Dynamics");
  make_enum_picklable(dynamics);
  dynamics
      .value("SEQUENTIAL", Dynamics::kSequential, "one actor per node: a seat (sub-moves repeat it) or chance")
      .value("SIMULTANEOUS", Dynamics::kSimultaneous, "some nodes have every seat act at once");
  py::enum_<Chance> chance(type, "Chance");
  make_enum_picklable(chance);
  chance
      .value("DETERMINISTIC", Chance::kDeterministic)
      .value("SETUP", Chance::kSetup, "chance acts only before the first player: a deal, a drawn setup")
      .value("CHANCE_NODES", Chance::kChanceNodes, "chance may act anywhere");
  py::enum_<Information> information(type, "Information");
  make_enum_picklable(information);
  information
      .value("PERFECT", Information::kPerfect)
      .value("IMPERFECT", Information::kImperfect, "players see only their own observation_tensor(player)");
  py::enum_<Utility> utility(type, "Utility");
  make_enum_picklable(utility);
  utility
      .value("ZERO_SUM", Utility::kZeroSum)
      .value("CONSTANT_SUM", Utility::kConstantSum)
      .value("GENERAL_SUM", Utility::kGeneralSum);
  type.def_readonly("dynamics", &GameType::dynamics)
      .def_readonly("chance", &GameType::chance)
      .def_readonly("information", &GameType::information)
      .def_readonly("utility", &GameType::utility)
      .def_readonly("min_return", &GameType::min_return, "Every return of every player is at least this.")
      .def_readonly("max_return", &GameType::max_return, "Every return of every player is at most this.")
      .def_readonly("return_sum", &GameType::return_sum, "The sum of the returns, for zero- and constant-sum games.")
      .def_property_readonly("simultaneous", &GameType::simultaneous)
      .def_property_readonly("has_chance", &GameType::has_chance)
      .def_property_readonly("perfect_information", &GameType::perfect_information)
      .def_property_readonly("constant_sum", &GameType::constant_sum)
      .def("__eq__", [](const GameType& a, const GameType& b) { return a == b; })
      .def("__str__", &GameType::describe)
      .def("__repr__", [](const GameType& t) { return "<boardlab.GameType " + t.describe() + ">"; });
  make_picklable(
      type,
      [](const GameType& t) {
        return py::make_tuple(kPickleVersion, static_cast<int>(t.dynamics), static_cast<int>(t.chance),
                              static_cast<int>(t.information), static_cast<int>(t.utility), t.min_return,
                              t.max_return, t.return_sum);
      },
      [](const py::object& payload) {
        const PickleReader r("GameType", payload, 7);
        GameType t;
        t.dynamics = enum_field<Dynamics>(r, 0, "dynamics", 2);
        t.chance = enum_field<Chance>(r, 1, "chance", 3);
        t.information = enum_field<Information>(r, 2, "information", 2);
        t.utility = enum_field<Utility>(r, 3, "utility", 3);
        t.min_return = r.get<double>(4, "min_return", "a float");
        t.max_return = r.get<double>(5, "max_return", "a float");
        t.return_sum = r.get<double>(6, "return_sum", "a float");
        return t;
      });
}

void bind_symmetry(py::module_& m) {
  py::class_<Symmetry> symmetry(m, "Symmetry",
                       "A symmetry in the viewer's frame: plane cell i moves to cell[i], action a to action[a], "
                       "seat p to player[p] (empty: seats stay), observation plane c to plane[c] (empty: planes stay).");
  symmetry
      .def_readonly("name", &Symmetry::name)
      .def_readonly("cell", &Symmetry::cell)
      .def_readonly("action", &Symmetry::action)
      .def_readonly("player", &Symmetry::player)
      .def_readonly("plane", &Symmetry::plane)
      .def("__eq__", [](const Symmetry& a, const Symmetry& b) { return a == b; })
      .def("__repr__", [](const Symmetry& s) { return "<boardlab.Symmetry " + s.name + ">"; });
  make_picklable(
      symmetry,
      [](const Symmetry& s) {
        return py::make_tuple(kPickleVersion, s.name, py::tuple(py::cast(s.cell)), py::tuple(py::cast(s.action)),
                              py::tuple(py::cast(s.player)), py::tuple(py::cast(s.plane)));
      },
      [](const py::object& payload) {
        const PickleReader r("Symmetry", payload, 5);
        Symmetry s;
        s.name = r.get<std::string>(0, "name", "a str");
        s.cell = r.get_list<int>(1, "cell");
        s.action = r.get_list<Action>(2, "action");
        s.player = r.get_list<Player>(3, "player");
        s.plane = r.get_list<int>(4, "plane");
        return s;
      });
}

int symmetry_index(const Game& game, const IntArg& index, const char* what) {
  const auto count = static_cast<std::int64_t>(game.symmetries().size());
  if (!index.in(0, count - 1))
    throw InputError(std::string(what) + ": index " + index.text() + " is not one of " + game.name() + "'s " +
                     std::to_string(count) + " symmetries (0.." + std::to_string(count - 1) + ")");
  return static_cast<int>(index.value);
}

void check_same_game(const GameHandle& g, const StateHandle& s, const char* what) {
  if (s.game != g.game && s.game->to_string() != g.game->to_string())
    throw InputError(std::string(what) + ": the state belongs to " + s.game->to_string() + ", not " +
                     g.game->to_string());
}

// What the game is: its name, parameters, players, actions, observations and symmetries.
void bind_game_facts(py::class_<GameHandle>& game) {
  game
      .def("name", [](const GameHandle& g) { return g.game->name(); }, "The registry name, e.g. 'virus_war'.")
      .def("parameters", [](const GameHandle& g) { return g.game->parameters(); },
           "Every parameter as a dict, defaults filled in.")
      .def("rules_string", [](const GameHandle& g) { return g.game->rules_string(); },
           "str(game) without the parameters that change only what players observe: what its rating "
           "ladder is stored under.")
      .def("type", [](const GameHandle& g) { return g.game->type(); },
           "What kind of game this is (a GameType): dynamics, chance, information, utility, return range.")
      .def("num_players", [](const GameHandle& g) { return g.game->num_players(); })
      .def("player_name",
           [](const GameHandle& g, const IntArg& p) { return g.game->player_name(seat_arg(*g.game, p, "player_name")); },
           py::arg("player"), "How people call the seat: 'X', 'White'...")
      .def("num_distinct_actions", [](const GameHandle& g) { return g.game->num_distinct_actions(); },
           "Size of the action space: actions are 0 .. num_distinct_actions() - 1.")
      .def("observation_shape",
           [](const GameHandle& g) {
             const ObservationShape shape = g.game->observation_shape();
             return py::make_tuple(shape.channels, shape.height, shape.width);
           },
           "(channels, height, width) of State.observation_tensor().")
      .def("observation_wraps_columns", [](const GameHandle& g) { return g.game->observation_shape().wrap_columns; },
           "Whether the observation's rows are rings, the last column next to the first (Morabaraba): a "
           "convolution over it should pad the columns circularly, as boardlab's network does.")
      .def("max_game_length", [](const GameHandle& g) { return g.game->max_game_length(); },
           "An upper bound on the number of steps in one game: sub-moves, passes, chance outcomes, and one "
           "per seat in a simultaneous round.")
      .def("arena_opening_turns", [](const GameHandle& g) { return g.game->traits().arena_opening_turns; },
           "Random turns that open each arena game when the caller names none: 2, or 0 for a game whose "
           "random turns decide games (squares).")
      // Readers of type(), kept for scripts written before it.
      .def("is_simultaneous", [](const GameHandle& g) { return g.game->type().simultaneous(); },
           "type().simultaneous")
      .def("has_hidden_information", [](const GameHandle& g) { return !g.game->type().perfect_information(); },
           "not type().perfect_information")
      .def("symmetries", [](const GameHandle& g) { return g.game->symmetries(); },
           "The non-identity symmetries valid for training augmentation (Symmetry objects; may be empty).")
      .def("symmetry_holds",
           [](const GameHandle& g, const StateHandle& s, const IntArg& index) {
             check_same_game(g, s, "symmetry_holds");
             return g.game->symmetry_holds(*s.state, symmetry_index(*g.game, index, "symmetry_holds"));
           },
           py::arg("state"), py::arg("index"), "Whether symmetries()[index] holds at `state`.")
      .def("apply_symmetry",
           [](const GameHandle& g, const StateHandle& s, const IntArg& index) {
             check_same_game(g, s, "apply_symmetry");
             return StateHandle(g.game, g.game->apply_symmetry(*s.state, symmetry_index(*g.game, index, "apply_symmetry")));
           },
           py::arg("state"), py::arg("index"), "The image of `state` under symmetries()[index], a new State.");
}

// States of the game (new, or read from records), and the game as a value: text, equality, copies, pickles.
void bind_game_states(py::class_<GameHandle>& game) {
  game
      .def("new_initial_state", [](const GameHandle& g) { return StateHandle(g.game, g.game->new_initial_state()); })
      .def("load_record",
           [](const GameHandle& g, const TextArg& record) {
             return StateHandle(g.game, g.game->load_record(text_arg(record, "load_record: record")));
           },
           py::arg("record"),
           "The final state of a game given in the game's notation (State.record()); "
           "raises NotationError (a ValueError) naming the bad turn.")
      .def("sample_record",
           [](const GameHandle& g, const TextArg& record_arg, const IntArg& viewer, const std::optional<SeedArg>& seed,
              const IntArg& max_nodes) {
             const std::string& record = text_arg(record_arg, "sample_record: record");
             const Player v = viewer_arg(*g.game, viewer, "sample_record");
             if (!max_nodes.in(1, INT32_MAX))
               throw InputError("sample_record: max_nodes must be 1.." + std::to_string(INT32_MAX) + ", got " +
                                max_nodes.text());
             Rng rng(seed_or_entropy(seed, "sample_record: seed"));
             return StateHandle(g.game, g.game->sample_record(record, v, rng, static_cast<int>(max_nodes.value)));
           },
           py::arg("record"), py::arg("viewer"), py::arg("seed") = py::none(), py::arg("max_nodes") = 100000,
           "A full game whose record as `viewer` saw it (State.record_for(viewer); PUBLIC_VIEWER for the public "
           "record) is `record`, the hidden steps drawn at random (reproducibly with `seed`); NotationError when "
           "none fits.")
      .def("__str__", [](const GameHandle& g) { return g.game->to_string(); })
      .def("__repr__", [](const GameHandle& g) { return "<boardlab.Game " + g.game->to_string() + ">"; })
      .def("__eq__", [](const GameHandle& a, const GameHandle& b) { return a.game->to_string() == b.game->to_string(); })
      .def("__hash__", [](const GameHandle& g) { return std::hash<std::string>{}(g.game->to_string()); })
      // Immutable: a copy is the same game.
      .def("__copy__", [](const GameHandle& g) { return g; })
      .def("__deepcopy__", [](const GameHandle& g, const py::object&) { return g; }, py::arg("memo"));
  // Pickled as its game string, loaded back through the registry.
  make_picklable(
      game, [](const GameHandle& g) { return py::make_tuple(kPickleVersion, g.game->to_string()); },
      [](const py::object& payload) {
        const PickleReader r("Game", payload, 1);
        const auto text = r.get<std::string>(0, "the game string", "a str");
        try {
          return GameHandle{load_game(text)};
        } catch (const InputError& e) {
          r.fail(std::string("the game string: ") + e.what());
        }
      });
}

}  // namespace

void bind_game(py::module_& m) {
  bind_game_type(m);
  bind_symmetry(m);
  py::class_<GameHandle> game(m, "Game", "A game with its parameters fixed; immutable, shared by its states.");
  bind_game_facts(game);
  bind_game_states(game);
}

}  // namespace boardlab::python
