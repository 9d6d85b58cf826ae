// The _boardlab_nn extension module: training, network players and network benchmarks (links LibTorch).
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <mutex>
#include <optional>

#include <pybind11/numpy.h>

#include "../common/arena_binding.h"
#include "../common/error_translation.h"
#include "../common/pickling.h"
#include "../common/stoppable.h"
#include "../module/arguments.h"
#include "arena/player_spec.h"
#include "core/errors.h"
#include "games/registry.h"
#include "mcts/deal_belief.h"
#include "mcts/principal_variation.h"
#include "mcts/search.h"
#include "mcts/search_driver.h"
#include "nn/agent_bot.h"
#include "nn/checkpoint.h"
#include "nn/device.h"
#include "nn/network_bench.h"
#include "nn/network_evaluator.h"
#include "nn/pipeline.h"
#include "nn/train_config.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

py::dict py_train(const TextArg& config, const std::vector<TextArg>& overrides, const TextArg& out, bool resume,
                  const std::optional<py::function>& log) {
  TrainOptions options;
  options.config_path = text_arg(config, "train: config");
  options.overrides = text_args(overrides, "train: overrides");
  options.out_dir = text_arg(out, "train: out");
  options.resume = resume;
  if (log) {
    py::function callback = *log;
    options.log = [callback](const std::string& line) {
      py::gil_scoped_acquire gil;
      callback(line);
    };
  }
  // Ctrl-C and SIGTERM end the run at its next safe point with a checkpoint; the summary
  // says which signal stopped it.
  const auto [summary, stopped_by] = run_stoppable([&] { return train(options); });
  return py::dict(py::arg("run_dir") = summary.run_dir, py::arg("latest_checkpoint") = summary.latest_checkpoint,
                  py::arg("steps") = summary.steps, py::arg("games") = summary.games,
                  py::arg("positions") = summary.positions, py::arg("seconds") = summary.seconds,
                  py::arg("final_evaluation") = summary.final_evaluation, py::arg("interrupted") = summary.stopped,
                  py::arg("signal") = stopped_by, py::arg("rank") = summary.rank);
}

py::dict py_bench_network(const TextArg& config, const std::vector<TextArg>& overrides, double seconds,
                          bool with_training) {
  const TrainConfig cfg = load_train_config(text_arg(config, "bench_network: config"),
                                            text_args(overrides, "bench_network: overrides"));
  const NetworkBenchStats s = run_interruptible([&] { return bench_network(cfg, seconds, with_training); });
  return py::dict(py::arg("game") = cfg.game, py::arg("device") = s.device, py::arg("blocks") = cfg.network.blocks,
                  py::arg("channels") = cfg.network.channels, py::arg("batch") = s.batch,
                  py::arg("workers") = cfg.self_play.workers, py::arg("evaluations_per_second") = s.evaluations_per_second,
                  py::arg("selfplay_simulations_per_second") = s.selfplay_simulations_per_second,
                  py::arg("selfplay_evaluations_per_second") = s.selfplay_evaluations_per_second,
                  py::arg("mean_batch") = s.mean_batch, py::arg("reused_share") = s.selfplay_reused_share,
                  py::arg("ratio") = s.ratio(),
                  py::arg("raw_cores") = s.raw_cores, py::arg("selfplay_cores") = s.selfplay_cores,
                  py::arg("evaluations_per_cpu_second") = s.evaluations_per_cpu_second(),
                  py::arg("selfplay_simulations_per_cpu_second") = s.selfplay_simulations_per_cpu_second(),
                  py::arg("cpu_ratio") = s.cpu_ratio(),
                  py::arg("with_training") = s.with_training,
                  py::arg("training_steps_per_second") = s.training_steps_per_second);
}

py::dict py_checkpoint_info(const TextArg& path) {
  const Checkpoint c = load_checkpoint(text_arg(path, "checkpoint_info: path"));
  return py::dict(py::arg("game") = c.info.game, py::arg("step") = c.info.step, py::arg("games") = c.info.games,
                  py::arg("positions") = c.info.positions, py::arg("seconds") = c.info.seconds,
                  py::arg("blocks") = c.info.network.blocks, py::arg("channels") = c.info.network.channels,
                  py::arg("parameters") = c.model.num_parameters(), py::arg("config_yaml") = c.info.config_yaml);
}

// A trained network with its search, for Python: act, and a look at its prior, search
// policy and value. The network is shared with every other user of the same checkpoint.
class Agent {
 public:
  // simulations: the budget; none plays the run's own evaluation search as it is.
  Agent(const std::string& checkpoint, std::optional<int> simulations, std::uint64_t seed)
      : path_(checkpoint), game_(load_game(load_checkpoint_game(checkpoint))),
        model_(cached_checkpoint_model(checkpoint, *game_)), config_(checkpoint_search(checkpoint, *game_)),
        evaluator_(*model_) {
    if (simulations) config_.simulations = *simulations;
    validate(config_);
    search_ = std::make_unique<Search>(*game_, config_, seed);
    driver_ = std::make_unique<SearchDriver>(evaluator_, config_.cache_positions);
  }

  Action act(const StateHandle& s, const std::optional<IntArg>& player) {
    check(s);
    return search(s, seat(s, player)).action;
  }

  // (prior, search policy), each over every action (zero where illegal).
  py::tuple policy(const StateHandle& s, const std::optional<IntArg>& player) {
    check(s);
    const int n = game_->num_distinct_actions();
    py::array_t<float> prior(n), searched(n);
    std::fill_n(prior.mutable_data(), n, 0.0f);
    std::fill_n(searched.mutable_data(), n, 0.0f);
    const Player p = seat(s, player);
    const Evaluation eval = evaluate(s, p);
    const std::vector<Action> legal = s.state->legal_actions(p);
    for (std::size_t i = 0; i < legal.size(); ++i) prior.mutable_data()[legal[i]] = eval.prior[i];
    const SearchResult result = search(s, p);
    for (std::size_t i = 0; i < result.legal.size(); ++i) searched.mutable_data()[result.legal[i]] = result.policy[i];
    return py::make_tuple(prior, searched);
  }

  // Everything an analysis shows of one position in one call: the network's prior and value,
  // the search's visits, policy, value and expected line, for `player` (default: the mover).
  py::dict analyse(const StateHandle& s, const std::optional<IntArg>& player, const IntArg& line_length) {
    check(s);
    const int max_line = int_arg<int>(line_length, "analyse: line_length", 0, 1000);
    const int n = game_->num_distinct_actions();
    py::array_t<float> prior(n), searched(n);
    py::array_t<int> visits(n);
    std::fill_n(prior.mutable_data(), n, 0.0f);
    std::fill_n(searched.mutable_data(), n, 0.0f);
    std::fill_n(visits.mutable_data(), n, 0);
    const Player p = seat(s, player);
    const Evaluation eval = evaluate(s, p);
    const std::vector<Action> legal = s.state->legal_actions(p);
    for (std::size_t i = 0; i < legal.size(); ++i) prior.mutable_data()[legal[i]] = eval.prior[i];
    std::vector<Action> line;
    const SearchResult result = search(s, p, max_line, &line);
    for (std::size_t i = 0; i < result.legal.size(); ++i) {
      searched.mutable_data()[result.legal[i]] = result.policy[i];
      visits.mutable_data()[result.legal[i]] = result.visits[i];
    }
    py::array_t<float> value(static_cast<py::ssize_t>(eval.value.size()));
    std::copy(eval.value.begin(), eval.value.end(), value.mutable_data());
    return py::dict(py::arg("player") = p, py::arg("prior") = prior, py::arg("visits") = visits,
                    py::arg("policy") = searched, py::arg("value") = value, py::arg("search_value") = result.value,
                    py::arg("action") = result.action, py::arg("line") = line,
                    py::arg("simulations") = result.simulations);
  }

  // The network's value of the position for every player.
  py::array_t<float> value(const StateHandle& s, const std::optional<IntArg>& player) {
    check(s);
    const Evaluation eval = evaluate(s, seat(s, player));
    py::array_t<float> out(static_cast<py::ssize_t>(eval.value.size()));
    std::copy(eval.value.begin(), eval.value.end(), out.mutable_data());
    return out;
  }

  // Deals of what `player` (default: the mover) cannot see, drawn from its view and weighed by
  // how likely the other seats' past decisions are in each under this network's policy
  // (mcts/deal_belief.h): {"deals": states, "weights": summing to 1, "effective_deals"}.
  py::dict beliefs(const StateHandle& s, const std::optional<IntArg>& player, const IntArg& deals,
                   const IntArg& window, double floor, const SeedArg& seed) {
    check(s);
    if (game_->type().perfect_information())
      throw InputError("beliefs: " + game_->name() + " hides nothing from any player");
    const int count = int_arg<int>(deals, "beliefs: deals", 1, 100000);
    const int last = int_arg<int>(window, "beliefs: window", 0, 1000000);
    if (!(floor >= 0 && floor <= 1))
      throw InputError("beliefs: floor is the uniform share mixed into the policy each past move is weighed by, "
                       "from 0 to 1, not " + std::to_string(floor));
    const Player p = player ? seat_arg(*s.game, *player, "beliefs") : PlayerView::of_mover(*s.state).viewer();
    Rng rng(seed_arg(seed, "beliefs: seed"));
    DealBelief belief;
    run_interruptible([&] {
      std::lock_guard lock(mutex_);
      belief.start(PlayerView(*s.state, p), count, last, rng);
      belief.weigh(evaluate_in_batches(belief.requests()), static_cast<float>(floor));
      return 0;
    });
    py::list states;
    for (int d = 0; d < belief.size(); ++d) states.append(StateHandle(game_, belief.deal(d).clone()));
    py::array_t<double> weights(belief.size());
    std::copy(belief.weights().begin(), belief.weights().end(), weights.mutable_data());
    return py::dict(py::arg("player") = p, py::arg("deals") = states, py::arg("weights") = weights,
                    py::arg("effective_deals") = belief.effective_deals());
  }

  std::string spec() const {
    return player_spec_string({"agent", path_, {{"simulations", std::to_string(config_.simulations)}}});
  }
  GameHandle game() const { return GameHandle{game_}; }
  int simulations() const { return config_.simulations; }
  const std::string& path() const { return path_; }

 private:
  static std::string load_checkpoint_game(const std::string& path) { return load_checkpoint(path).info.game; }

  void check(const StateHandle& s) const {
    if (s.game->to_string() != game_->to_string())
      throw InputError("this agent plays " + game_->to_string() + ", not " + s.game->to_string());
    if (s.state->is_terminal()) throw InputError("the game is over");
  }

  // The seat the agent decides for: `player`, or the one player to move.
  static Player seat(const StateHandle& s, const std::optional<IntArg>& player) {
    const PlayerView view =
        player ? PlayerView(*s.state, seat_arg(*s.game, *player, "agent")) : PlayerView::of_mover(*s.state);
    if (!view.acts()) throw InputError(s.game->player_name(view.viewer()) + " does not act here");
    return view.viewer();
  }

  Evaluation evaluate(const StateHandle& s, Player player) {
    std::vector<Action> legal = s.state->legal_actions(player);
    const EvalRequest request{s.state.get(), player, legal};
    Evaluation eval;
    py::gil_scoped_release release;
    std::lock_guard lock(mutex_);  // the evaluator's buffers and the tree are not shared between threads
    evaluator_.evaluate(std::span<const EvalRequest>(&request, 1), std::span<Evaluation>(&eval, 1));
    return eval;
  }

  // Many requests in batches of a size the network's buffers keep small.
  std::vector<Evaluation> evaluate_in_batches(std::span<const EvalRequest> requests) {
    constexpr std::size_t kBatch = 256;
    std::vector<Evaluation> evals(requests.size());
    for (std::size_t i = 0; i < requests.size(); i += kBatch) {
      const std::size_t n = std::min(kBatch, requests.size() - i);
      evaluator_.evaluate(requests.subspan(i, n), std::span<Evaluation>(evals).subspan(i, n));
    }
    return evals;
  }

  // One search for seat `p`; with `line`, also the expected line of up to `max_line` actions.
  SearchResult search(const StateHandle& s, Player p, int max_line = 0, std::vector<Action>* line = nullptr) {
    const std::unique_ptr<State> root = s.state->clone();
    return run_interruptible([&] {
      std::lock_guard lock(mutex_);
      search_->start(PlayerView(*root, p));
      Search* searches[] = {search_.get()};
      driver_->run(searches);
      if (line) *line = principal_variation(search_->tree(), max_line);
      return search_->result();
    });
  }

  std::string path_;
  std::shared_ptr<const Game> game_;
  std::shared_ptr<const Model> model_;
  SearchConfig config_;
  NetworkEvaluator evaluator_;
  std::unique_ptr<Search> search_;
  std::unique_ptr<SearchDriver> driver_;  // its cache serves every search of this agent
  std::mutex mutex_;
};

}  // namespace
}  // namespace boardlab::python

PYBIND11_MODULE(_boardlab_nn, m) {
  using namespace boardlab;
  using namespace boardlab::python;
  m.doc() = "boardlab's LibTorch layer: training runs, network players, network benchmarks";
  const py::module_ core = py::module_::import("boardlab._boardlab");  // the Game, State and Bot types used here
  // _boardlab registers its error classes for its own functions only: errors thrown here must
  // become the same classes, or the command line shows a traceback instead of one line.
  const auto kept = [&](const char* name) { return py::object(core.attr(name)).release().ptr(); };
  translate_errors({kept("InputError"), kept("IllegalActionError"), kept("GameParameterError"), kept("NotationError"),
                    kept("FileError")});
  bind_arena(m, make_any_bot);
  m.def("train", &py_train, py::arg("config") = "", py::arg("overrides") = std::vector<std::string>{},
        py::arg("out") = "", py::arg("resume") = false, py::arg("log") = py::none(),
        "Runs a training run and returns its summary. Ctrl-C or SIGTERM stops it at its next safe point "
        "with a checkpoint: the summary then says interrupted=True and the signal.");
  m.def("bench_network", &py_bench_network, py::arg("config"), py::arg("overrides") = std::vector<std::string>{},
        py::arg("seconds") = 5.0, py::arg("with_training") = false);
  m.def("checkpoint_info", &py_checkpoint_info, py::arg("path"));
  m.def("cuda_available", &cuda_available,
        "Whether this build's LibTorch has CUDA and sees a GPU: where network.device: auto runs the network.");
  py::class_<Agent> agent(m, "Agent", "A trained network with its search (Gumbel, no noise).");
  refuse_pickling(agent, "an agent is live (a loaded network and its search); keep agent.checkpoint and "
                         "agent.simulations and make it again with Agent(checkpoint, simulations)");
  agent
      .def(py::init([](const TextArg& checkpoint, const std::optional<IntArg>& simulations, const SeedArg& seed) {
             return std::make_unique<Agent>(text_arg(checkpoint, "Agent: checkpoint"),
                                            int_arg<int>(simulations, "Agent: simulations", 1),
                                            seed_arg(seed, "Agent: seed"));
           }),
           py::arg("checkpoint"),
           py::arg("simulations") = py::none(),
           py::arg("seed") = 0)
      .def("act", &Agent::act, py::arg("state"), py::arg("player") = py::none(),
           "The action the agent plays for `player` (default: the player to move; name the seat at a "
           "simultaneous round), after its search from that player's view.")
      .def("policy", &Agent::policy, py::arg("state"), py::arg("player") = py::none(),
           "(prior, search policy) of `player`: the network's prior and the search's policy, over every action.")
      .def("analyse", &Agent::analyse, py::arg("state"), py::arg("player") = py::none(),
           py::arg("line_length") = 12,
           "One position's analysis for `player` (default: the mover), a dict: prior, visits and policy over "
           "every action (the network's prior, the search's root visits and its policy), value (the network's, "
           "per player), search_value (the search's, for the player), action (its choice), line (the most "
           "visited actions from here, up to line_length) and simulations.")
      .def("beliefs", &Agent::beliefs, py::arg("state"), py::arg("player") = py::none(), py::arg("deals") = 64,
           py::arg("window") = 0, py::arg("floor") = 0.1, py::arg("seed") = 0,
           "What `player` (default: the mover) believes about what it cannot see, a dict: deals (states drawn "
           "from its view, each consistent with what it saw), weights (summing to 1: each deal weighed by how "
           "likely the other seats' last `window` decisions (0: all) are in it under this network's policy, "
           "mixed with a uniform share `floor`) and effective_deals ((sum w)^2 / sum w^2). As "
           "search.belief_deals weighs the deals of the agent's search.")
      .def("value", &Agent::value, py::arg("state"), py::arg("player") = py::none(),
           "The network's value of the position for every player, from `player`'s observation.")
      .def_property_readonly("spec", &Agent::spec, "The player spec that plays this agent in the arena.")
      .def_property_readonly("simulations", &Agent::simulations)
      .def_property_readonly("checkpoint", &Agent::path)
      .def("game", &Agent::game)
      .def("__repr__", [](const Agent& a) { return "<boardlab.Agent " + a.spec() + ">"; });
  m.def("default_config_yaml", &default_train_config_yaml, "Every training key with its default and a comment.");
  m.def(
      "config_yaml",
      [](const TextArg& path, const std::vector<TextArg>& overrides) {
        return load_train_config(text_arg(path, "config_yaml: config"), text_args(overrides, "config_yaml: overrides"))
            .yaml;
      },
      py::arg("config"), py::arg("overrides") = std::vector<std::string>{},
      "Every training key as a config file and its overrides resolve it, with a comment.");
}
