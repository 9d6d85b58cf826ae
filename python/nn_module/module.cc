// The _boardlab_nn extension module: training, network players and network benchmarks (links LibTorch).
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <csignal>

#include "../common/arena_binding.h"
#include "nn/agent_bot.h"
#include "nn/checkpoint.h"
#include "nn/network_bench.h"
#include "nn/pipeline.h"
#include "nn/train_config.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_interrupt(int) { g_stop = true; }

// While C++ trains with the GIL released Python cannot see Ctrl-C: a handler of our own
// sets the stop flag, the run ends at its next safe point with a checkpoint, and Python's
// handler comes back afterwards.
class InterruptGuard {
 public:
  InterruptGuard() {
    g_stop = false;
    previous_ = std::signal(SIGINT, on_interrupt);
  }
  ~InterruptGuard() { std::signal(SIGINT, previous_); }
  bool interrupted() const { return g_stop; }

 private:
  void (*previous_)(int);
};

py::dict py_train(const std::string& config, const std::vector<std::string>& overrides, const std::string& out,
                  bool resume, const std::optional<py::function>& log) {
  TrainOptions options;
  options.config_path = config;
  options.overrides = overrides;
  options.out_dir = out;
  options.resume = resume;
  options.stop = &g_stop;
  if (log) {
    py::function callback = *log;
    options.log = [callback](const std::string& line) {
      py::gil_scoped_acquire gil;
      callback(line);
    };
  }
  TrainSummary summary;
  bool interrupted = false;
  {
    InterruptGuard guard;
    py::gil_scoped_release release;
    summary = train(options);
    interrupted = guard.interrupted();
  }
  return py::dict(py::arg("run_dir") = summary.run_dir, py::arg("latest_checkpoint") = summary.latest_checkpoint,
                  py::arg("steps") = summary.steps, py::arg("games") = summary.games,
                  py::arg("positions") = summary.positions, py::arg("seconds") = summary.seconds,
                  py::arg("final_evaluation") = summary.final_evaluation, py::arg("interrupted") = interrupted);
}

py::dict py_bench_network(const std::string& config, const std::vector<std::string>& overrides, double seconds) {
  const TrainConfig cfg = load_train_config(config, overrides);
  NetworkBenchStats s;
  {
    py::gil_scoped_release release;
    s = bench_network(cfg, seconds);
  }
  return py::dict(py::arg("game") = cfg.game, py::arg("blocks") = cfg.network.blocks,
                  py::arg("channels") = cfg.network.channels, py::arg("batch") = s.batch,
                  py::arg("workers") = cfg.workers, py::arg("evaluations_per_second") = s.evaluations_per_second,
                  py::arg("selfplay_simulations_per_second") = s.selfplay_simulations_per_second,
                  py::arg("selfplay_evaluations_per_second") = s.selfplay_evaluations_per_second,
                  py::arg("mean_batch") = s.mean_batch, py::arg("ratio") = s.ratio());
}

py::dict py_checkpoint_info(const std::string& path) {
  const Checkpoint c = load_checkpoint(path);
  return py::dict(py::arg("game") = c.info.game, py::arg("step") = c.info.step, py::arg("games") = c.info.games,
                  py::arg("positions") = c.info.positions, py::arg("seconds") = c.info.seconds,
                  py::arg("blocks") = c.info.network.blocks, py::arg("channels") = c.info.network.channels,
                  py::arg("parameters") = c.model.num_parameters(), py::arg("config_yaml") = c.info.config_yaml);
}

std::string default_config_yaml() {
  return Config::parse("", "(defaults)", train_config_schema()).to_yaml();
}

}  // namespace
}  // namespace boardlab::python

PYBIND11_MODULE(_boardlab_nn, m) {
  using namespace boardlab;
  using namespace boardlab::python;
  m.doc() = "boardlab's LibTorch layer: training runs, network players, network benchmarks";
  py::module_::import("boardlab._boardlab");  // the Game, State and Bot types this module uses
  bind_arena(m, make_any_bot);
  m.def("train", &py_train, py::arg("config") = "", py::arg("overrides") = std::vector<std::string>{},
        py::arg("out") = "", py::arg("resume") = false, py::arg("log") = py::none(),
        "Runs a training run (Ctrl-C stops it at a safe point with a checkpoint); returns its summary.");
  m.def("bench_network", &py_bench_network, py::arg("config"), py::arg("overrides") = std::vector<std::string>{},
        py::arg("seconds") = 5.0);
  m.def("checkpoint_info", &py_checkpoint_info, py::arg("path"));
  m.def("default_config_yaml", &default_config_yaml, "Every training key with its default and a comment.");
}
