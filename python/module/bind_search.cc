// Search players, the arena and the search benchmark for Python.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>

#include "../common/arena_binding.h"
#include "../common/pickling.h"
#include "../common/stoppable.h"
#include "arena/player_spec.h"
#include "arguments.h"
#include "bindings.h"
#include "core/errors.h"
#include "mcts/bots.h"
#include "mcts/search_bench.h"
#include "mcts/search_config.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

py::dict py_search_bench(const GameHandle& game, const TextArg& options_arg, const TextArg& evaluator_arg,
                         const IntArg& concurrent_arg, double seconds, const SeedArg& seed_value) {
  const std::string& options = text_arg(options_arg, "search_bench: options");
  const std::string& evaluator = text_arg(evaluator_arg, "search_bench: evaluator");
  const int concurrent = int_arg<int>(concurrent_arg, "search_bench: concurrent", 1);
  const std::uint64_t seed = seed_arg(seed_value, "search_bench: seed");
  SearchConfig config;
  set_search_options(config, options);
  validate(config);
  BenchEvaluator kind;
  if (evaluator == "free") kind = BenchEvaluator::kFree;
  else if (evaluator == "rollout") kind = BenchEvaluator::kRollout;
  else throw InputError("search_bench: evaluator must be 'free' or 'rollout', got '" + evaluator + "'");
  const SearchBenchStats s =
      run_interruptible([&] { return bench_search(*game.game, config, kind, concurrent, seconds, seed); });
  return py::dict(py::arg("concurrent") = s.concurrent, py::arg("decisions") = s.decisions,
                  py::arg("simulations") = s.simulations, py::arg("evaluations") = s.evaluations,
                  py::arg("batches") = s.batches, py::arg("seconds") = s.seconds,
                  py::arg("simulations_per_second") = s.simulations_per_second(),
                  py::arg("mean_batch") = s.mean_batch());
}

void bind_stop_and_bot(py::module_& m) {
  py::class_<StopToken> stop_class(m, "StopToken",
                                   "Ends one bot's act() early, with its best move so far: request() from another "
                                   "thread, or StopToken(seconds) for a time limit counted from its making.");
  refuse_pickling(stop_class, "a copy would not stop the search that polls this token; make a new StopToken");
  stop_class
      .def(py::init([](const std::optional<double>& seconds) {
             if (!seconds) return std::make_unique<StopToken>();
             if (!(*seconds >= 0 && *seconds <= 1e9))
               throw InputError("StopToken: seconds must be from 0 to 1e9, got " + std::to_string(*seconds));
             return std::make_unique<StopToken>(*seconds);
           }),
           py::arg("seconds") = py::none())
      .def("request", &StopToken::request, py::call_guard<py::gil_scoped_release>(),
           "Asks the act() that polls this token to end now (thread-safe).")
      .def_property_readonly("requested", &StopToken::requested, "Requested, or past its time limit.");
  py::class_<Bot> bot_class(m, "Bot", "A player: act(state, player) returns its action, from what that player may know.");
  refuse_pickling(bot_class, "a player is live (its search tree, its random generator); keep its spec and call "
                       "make_bot(spec, game, seed) again");
  bot_class
      .def(
          "act",
          [](Bot& bot, const StateHandle& s, const std::optional<IntArg>& player, const StopToken* stop) {
            if (s.state->is_terminal()) throw InputError("act: the game is over");
            const std::unique_ptr<State> copy = s.state->clone();
            const PlayerView view =
                player ? PlayerView(*copy, seat_arg(*s.game, *player, "act")) : PlayerView::of_mover(*copy);
            if (!view.acts())
              throw InputError("act: " + s.game->player_name(view.viewer()) + " does not act here");
            // The token is polled for this call only: the bot keeps no pointer past it.
            struct Watch {
              Bot& bot;
              ~Watch() { bot.set_stop(nullptr); }
            } watch{bot};
            bot.set_stop(stop);
            return run_interruptible([&] { return bot.act(view); });
          },
          py::arg("state"), py::arg("player") = py::none(), py::arg("stop") = py::none(),
          "The bot's action for `player` (default: the player to move; name the seat at a simultaneous node). "
          "The bot sees only that player's view of the state. With `stop` (a StopToken) a search ends early, "
          "with its best move so far, once the token is requested or its time is up.")
      .def("restart", &Bot::restart);
}

// The one parser of player specs (arena/player_spec.h), for the command line and Python.
void bind_player_specs(py::module_& m) {
  m.def(
      "split_player_specs",
      [](const TextArg& text) { return split_player_specs(text_arg(text, "split_player_specs: text")); },
      py::arg("text"),
      "A list of player specs split at its top-level commas: 'agent:ck.pt(simulations=8),random' is two. "
      "Raises InputError (a ValueError) for a malformed list or the old 'kind:key=value,...' spelling.");
  m.def(
      "parse_player_spec",
      [](const TextArg& text) {
        const PlayerSpec spec = parse_player_spec(text_arg(text, "parse_player_spec: text"));
        py::dict options;
        for (const auto& [key, value] : spec.options) options[py::str(key)] = value;
        return py::make_tuple(spec.kind, spec.argument, options);
      },
      py::arg("text"),
      "(kind, argument or None, options dict) of a spec kind[:argument][(key=value,...)], quotes removed.");
  m.def(
      "player_spec",
      [](const TextArg& kind, const std::optional<TextArg>& argument,
         const std::vector<std::pair<TextArg, TextArg>>& options) {
        PlayerSpec spec{text_arg(kind, "player_spec: kind"), text_arg(argument, "player_spec: argument"), {}};
        for (std::size_t i = 0; i < options.size(); ++i) {
          const std::string what = "player_spec: options[" + std::to_string(i) + "]";
          spec.options.emplace_back(text_arg(options[i].first, what.c_str()), text_arg(options[i].second, what.c_str()));
        }
        return player_spec_string(spec);
      },
      py::arg("kind"), py::arg("argument") = py::none(),
      py::arg("options") = std::vector<std::pair<std::string, std::string>>{},
      "The spec text of a kind, an argument and (key, value) options, quoted where needed: "
      "player_spec('agent', 'my,run/latest.pt', [('simulations', '8')]) is \"agent:'my,run/latest.pt'(simulations=8)\".");
}

}  // namespace

void bind_search(py::module_& m) {
  bind_stop_and_bot(m);
  bind_arena(m, make_search_bot);
  bind_player_specs(m);
  m.def("search_bench", &py_search_bench, py::arg("game"), py::arg("options") = "", py::arg("evaluator") = "free",
        py::arg("concurrent") = 1, py::arg("seconds") = 1.0, py::arg("seed") = 0,
        "Times batched search on random positions: `free` evaluator (the search alone) or `rollout` (UCT's cost).");
  m.attr("PLAYER_KINDS_HELP") = search_bot_kinds_help();
  m.attr("MAX_BENCH_CONCURRENT") = kMaxBenchConcurrent;
  m.attr("MAX_SIMULATIONS") = kMaxSimulations;
}

}  // namespace boardlab::python
