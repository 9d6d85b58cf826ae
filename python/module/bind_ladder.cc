// A game's stored rating ladder for Python: where it lives, reading it, and storing a rebuilt one.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "../common/ladder_dict.h"
#include "arena/ladder.h"
#include "arguments.h"
#include "bindings.h"
#include "core/errors.h"
#include "handles.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

template <class T>
T item(const py::dict& d, const char* key, const char* where) {
  if (!d.contains(key)) throw InputError(std::string(where) + ": no '" + key + "'");
  try {
    return d[key].cast<T>();
  } catch (const py::cast_error&) {
    throw InputError(std::string(where) + ": '" + key + "' has the wrong type");
  }
}

Ladder ladder_from_dict(const py::dict& d) {
  constexpr const char* kWhere = "store_ladder";
  Ladder ladder;
  ladder.game = item<std::string>(d, "game", kWhere);
  ladder.games_per_group = item<int>(d, "games_per_group", kWhere);
  ladder.opening_turns = item<int>(d, "opening_turns", kWhere);
  ladder.seed = item<std::uint64_t>(d, "seed", kWhere);
  ladder.seconds = item<double>(d, "seconds", kWhere);
  ladder.built = d.contains("built") ? item<std::string>(d, "built", kWhere) : "";
  for (const py::handle rung : item<py::list>(d, "rungs", kWhere)) {
    const py::dict r = py::reinterpret_borrow<py::dict>(rung);
    ladder.rungs.push_back({item<std::string>(r, "player", "store_ladder: rung"), item<double>(r, "elo", "store_ladder: rung"),
                            item<double>(r, "low", "store_ladder: rung"), item<double>(r, "high", "store_ladder: rung"),
                            item<int>(r, "games", "store_ladder: rung")});
  }
  return ladder;
}

}  // namespace

void bind_ladder(py::module_& m) {
  m.def("pair_score", &pair_score, py::arg("mine"), py::arg("theirs"), py::arg("span"),
        "What a two-player game is worth to the player whose return is `mine`: 1/2 + (mine - theirs) / (2 span) "
        "within [0, 1], span being the game's max_return - min_return: 1, 1/2 and 0 for a win, a draw and a loss, "
        "a poker hand's chips as a fraction. The arena's scores and ratings read a two-player game this way.");
  m.def(
      "pair_points",
      [](double mine, double theirs, const IntArg& seats, double span) {
        return pair_points(mine, theirs, int_arg<int>(seats, "pair_points: seats"), span);
      },
      py::arg("mine"), py::arg("theirs"), py::arg("seats"), py::arg("span"),
        "What one seat's return is worth against another's in a game of `seats` players, as the arena's tables "
        "count it: pair_score for two seats; for more, 1 ahead, 1/2 level and 0 behind.");
  m.def("ladder_file", [](const TextArg& name) { return ladder_file(text_arg(name, "ladder_file: game name")); },
        py::arg("game_name"),
        "Where a game's ladders are kept: $BOARDLAB_GAMES_DIR/NAME/ladder.yaml, else the source tree's "
        "games/NAME/ladder.yaml.");
  m.def(
      "read_ladders",
      [](const TextArg& path) {
        py::list out;
        for (const Ladder& l : read_ladders(text_arg(path, "read_ladders: path"))) out.append(ladder_to_dict(l));
        return out;
      },
      py::arg("path"), "Every ladder in a ladder file, as dicts (rungs weakest first); [] when there is no file.");
  m.def(
      "find_ladder",
      [](const GameHandle& game) -> py::object {
        const std::optional<Ladder> ladder = find_ladder(*game.game);
        return ladder ? py::object(ladder_to_dict(*ladder)) : py::object(py::none());
      },
      py::arg("game"), "The game's stored ladder (matched by game string), or None.");
  m.def(
      "store_ladder",
      [](const TextArg& path, const py::dict& ladder) {
        const std::string file = text_arg(path, "store_ladder: path");
        store_ladder(file, ladder_from_dict(ladder));
      },
      py::arg("path"), py::arg("ladder"),
      "Writes a ladder (a dict as read_ladders gives) into a ladder file atomically, replacing the entry of "
      "the same game string and keeping the others.");
}

}  // namespace boardlab::python
