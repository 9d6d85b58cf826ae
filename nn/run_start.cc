// Where a training session starts: opening the run folder and restoring the latest checkpoint's network, counters and streams.
#include "nn/run_start.h"

#include <ctime>
#include <filesystem>

#include "core/errors.h"
#include "games/registry.h"
#include "nn/checkpoint.h"
#include "nn/device.h"
#include "nn/memory_estimate.h"

namespace boardlab {
namespace {

namespace fs = std::filesystem;

std::string stamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &local);
  return buf;
}

void check_fits(const TrainConfig& cfg) {
  resolve_device(cfg.network.device);  // network.device: cuda on a machine without one stops here
  const std::shared_ptr<const Game> game = load_game(cfg.game);
  check_memory(estimate_training_memory(cfg, *game), "training " + game->to_string(), available_memory());
}

}  // namespace

OpenedRun open_run(const TrainOptions& options, const std::function<void(const std::string&)>& log) {
  OpenedRun out;
  out.dir = options.out_dir;
  if (options.resume) {
    out.folder = RunFolder::open(out.dir, log);
    out.cfg = load_train_config(out.folder->config_path(), options.overrides);
    check_fits(out.cfg);
  } else {
    if (options.config_path.empty()) throw InputError("train: a config file is required (--config)");
    out.cfg = load_train_config(options.config_path, options.overrides);
    check_fits(out.cfg);
    if (out.dir.empty()) out.dir = (fs::path("runs") / (load_game(out.cfg.game)->name() + "-" + stamp())).string();
    out.folder = RunFolder::create(out.dir, log);
  }
  return out;
}

RunState restore(const OpenedRun& opened, const Game& game, bool resume) {
  const TrainConfig& cfg = opened.cfg;
  RunState state{.master = Rng(cfg.seed), .sampler = Rng(cfg.seed ^ 0x5a4d91e7ULL)};
  if (!resume) return state;
  RunFolder& run = *opened.folder;
  std::optional<ResumePoint> point = run.resume_point();
  if (!point) {
    // A run that died before its first checkpoint: what a researcher means by resuming it
    // is running it, so it starts again from step 0 with its own config.
    run.log("resume: '" + opened.dir + "' has no checkpoint yet: starting it from step 0 with its config");
    state.games_file_bytes = 0;
    return state;
  }
  Checkpoint& checkpoint = point->checkpoint;
  if (checkpoint.game->to_string() != game.to_string())
    throw InputError("resume: the checkpoint plays " + checkpoint.game->to_string() + " but the config says " + cfg.game);
  if (!(checkpoint.info.network == cfg.network))
    throw InputError("resume: the config's network differs from the checkpoint's; a run cannot change its network");
  state.step = checkpoint.info.step;
  state.progress = {checkpoint.info.games, checkpoint.info.positions, checkpoint.info.seconds};
  // Streams: the run's master and sampler, then one per self-play worker.
  const auto& streams = checkpoint.info.rng_states;
  if (streams.size() >= 2) {
    state.master.set_state(streams[0]);
    state.sampler.set_state(streams[1]);
    state.actor_streams.assign(streams.begin() + 2, streams.end());
  }
  state.checkpoint_path = point->path;
  state.games_file_bytes = checkpoint.info.games_file_bytes;
  state.metrics_rows = checkpoint.info.metrics_rows;
  state.model.emplace(std::move(checkpoint.model));
  state.resume_step = state.step;
  return state;
}

void restore_replay(RunFolder& run, const RunState& state, ReplayBuffer& replay) {
  if (!state.resume_step) return;
  std::string path = run.replay_path(*state.resume_step);
  if (!fs::exists(path) && state.metrics_rows < 0) path = run.legacy_replay_path();
  if (fs::exists(path)) replay.load(path);
  else run.log("resume: no replay was saved with step " + std::to_string(*state.resume_step) + "; self-play fills it again");
}

}  // namespace boardlab
