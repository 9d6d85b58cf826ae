// The training loop: actors and learner at the same time, with checkpoints, evaluations and metrics.
#include "nn/pipeline.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <functional>
#include <memory>
#include <iostream>
#include <optional>
#include <thread>

#include "core/atomic_file.h"
#include "core/errors.h"
#include "core/stop.h"
#include "games/registry.h"
#include "nn/actors.h"
#include "nn/checkpoint.h"
#include "nn/device.h"
#include "nn/distributed.h"
#include "nn/learner.h"
#include "nn/memory_estimate.h"
#include "nn/metrics_file.h"
#include "nn/progress_line.h"
#include "nn/replay_buffer.h"
#include "nn/run_evaluator.h"
#include "nn/run_folder.h"
#include "nn/train_config.h"
#include "nn/trainer.h"

namespace boardlab {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string stamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &local);
  return buf;
}

// A game's line in games/selfplay.txt: "[returns] record", and " (truncated)" after a game a
// cap ended (its record reproduces that too: the cap is a parameter of the game).
std::string game_line(const SelfPlayGame& game, const State& final_state) {
  std::string returns;
  for (double r : game.returns) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", r);
    returns += (returns.empty() ? "" : ",") + std::string(text);
  }
  return "[" + returns + "] " + final_state.record() + (game.truncated ? " (truncated)" : "");
}

// The run's counters, saved with each checkpoint.
struct Progress {
  std::int64_t games = 0, positions = 0;
  double seconds_before = 0;  // training time of earlier sessions
};

// Self-play columns of metrics.csv: rates over the interval since the previous row.
class SelfPlayMetrics {
 public:
  static std::vector<std::string> columns() {
    return {"games_per_s", "positions_per_s", "simulations_per_s", "mean_batch", "evaluations_per_simulation",
            "game_length", "draw_rate", "pass_rate", "truncated_rate", "network_lag"};
  }
  MetricsRow take(const ActorPool& actors, const Game& game) {
    const SelfPlayTally t = actors.tally();
    const std::uint64_t sims = actors.simulations(), searches = actors.searches();
    const InferenceStats inference = actors.inference_stats();
    const auto now = Clock::now();
    const double paused = actors.paused_seconds();
    // Over the time the actors played: an evaluation's row follows a pause of a minute.
    const double seconds = std::chrono::duration<double>(now - last_time_).count() - (paused - last_paused_);
    MetricsRow row;
    const double games = static_cast<double>(t.games - last_.games);
    if (seconds > 0.5) {  // less play than that (a row right after a pause) gives no rate worth a row
      row["games_per_s"] = metric_number(games / seconds, 2);
      row["positions_per_s"] = metric_number(static_cast<double>(searches - last_searches_) / seconds, 1);
      row["simulations_per_s"] = metric_number(static_cast<double>(sims - last_sims_) / seconds, 0);
    }
    if (inference.batches > last_inference_.batches)
      row["mean_batch"] = metric_number(static_cast<double>(inference.positions - last_inference_.positions) /
                                            static_cast<double>(inference.batches - last_inference_.batches),
                                        1);
    // Network evaluations per simulation: raised where each search evaluates its root and
    // where a simultaneous round asks once per seat (Squares: about 2), lowered where the
    // evaluation cache (search.cache_positions) answers positions seen before.
    if (sims > last_sims_)
      row["evaluations_per_simulation"] =
          metric_number(static_cast<double>(inference.positions - last_inference_.positions) /
                            static_cast<double>(sims - last_sims_),
                        3);
    if (games > 0) {
      row["game_length"] = metric_number(static_cast<double>(t.turns - last_.turns) / games, 1);
      row["draw_rate"] = metric_number(static_cast<double>(t.draws - last_.draws) / games, 3);
      row["truncated_rate"] = metric_number(static_cast<double>(t.truncated - last_.truncated) / games, 3);
      row["network_lag"] = metric_number(static_cast<double>(t.network_lag - last_.network_lag) / games, 1);
      if (game.pass_action() != kInvalidAction && t.seat_turns > last_.seat_turns)
        row["pass_rate"] = metric_number(static_cast<double>(t.passes - last_.passes) /
                                             static_cast<double>(t.seat_turns - last_.seat_turns),
                                         3);
    }
    last_ = t;
    last_sims_ = sims;
    last_searches_ = searches;
    last_inference_ = inference;
    last_time_ = now;
    last_paused_ = paused;
    return row;
  }

 private:
  SelfPlayTally last_;
  std::uint64_t last_sims_ = 0, last_searches_ = 0;
  InferenceStats last_inference_;
  Clock::time_point last_time_ = Clock::now();
  double last_paused_ = 0;
};

// The run folder and its config: a new run from the config file, or a resume from the
// run's own config.yaml; overrides apply to both.
struct OpenedRun {
  TrainConfig cfg;
  std::string dir;
  std::unique_ptr<RunFolder> folder;
};

OpenedRun open_run(const TrainOptions& options, const std::function<void(const std::string&)>& log) {
  OpenedRun out;
  out.dir = options.out_dir;
  // Before the first allocation (and a new run's folder): a config the schema allows may
  // still need more memory than the machine has, which would fail minutes in.
  auto check_fits = [](const TrainConfig& cfg) {
    resolve_device(cfg.device);  // network.device: cuda on a machine without one stops here
    const std::shared_ptr<const Game> game = load_game(cfg.game);
    check_memory(estimate_training_memory(cfg, *game), "training " + game->to_string(), available_memory());
  };
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

// Where a session starts: a fresh network and streams, or the latest checkpoint's.
struct RunState {
  std::string checkpoint_path{};  // the checkpoint resumed from, if any
  std::int64_t games_file_bytes = -1, metrics_rows = -1;  // its marks of the folder's moment
  std::int64_t step = 0;
  Progress progress{};
  Rng master{}, sampler{};
  std::vector<std::array<std::uint64_t, 4>> actor_streams{};  // one per self-play worker, or none
  std::optional<Model> model{};                                // the checkpoint's network
  std::optional<std::int64_t> resume_step{};
};

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

// The replay saved with the resumed checkpoint; an older version's replay.bin for an older
// version's checkpoint (one that did not mark the folder's moment).
void restore_replay(RunFolder& run, const RunState& state, ReplayBuffer& replay) {
  if (!state.resume_step) return;
  std::string path = run.replay_path(*state.resume_step);
  if (!fs::exists(path) && state.metrics_rows < 0) path = run.legacy_replay_path();
  if (fs::exists(path)) replay.load(path);
  else run.log("resume: no replay was saved with step " + std::to_string(*state.resume_step) + "; self-play fills it again");
}

// The learner's part: the whole run when it is the only rank.
TrainSummary train_here(const TrainOptions& options, RankInfo& me) {
  const auto log_fn = options.log ? options.log : [](const std::string& line) { std::cerr << line << std::endl; };
  const auto session_start = Clock::now();

  // ---- the run folder, its config and where this session starts
  OpenedRun opened = open_run(options, log_fn);
  const TrainConfig& cfg = opened.cfg;
  const std::string& dir = opened.dir;
  RunFolder& run = *opened.folder;
  const std::shared_ptr<const Game> game = load_game(cfg.game);
  RunState state = restore(opened, *game, options.resume);
  std::int64_t step = state.step;
  const Progress progress = state.progress;
  Rng& master = state.master;
  Model model = state.model ? std::move(*state.model) : Model(cfg.network, *game, cfg.seed);
  model.to_device(resolve_device(cfg.device));  // before the trainer: its optimizer follows the parameters
  Trainer trainer(model, cfg.optimizer);
  if (state.resume_step) load_optimizer(state.checkpoint_path, trainer);
  ReplayBuffer replay(*game, cfg.replay_window);
  restore_replay(run, state, replay);
  // Only once a resume's checkpoint and replay have loaded and match the config: a refused
  // resume must leave config.yaml and the folder as they were, or a plain --resume would
  // fail from then on.
  write_file_atomically(run.config_path(), cfg.yaml);
  if (options.resume) run.rewind(state.resume_step.value_or(-1), state.games_file_bytes);

  // The other ranks get the run's config first: a job that cannot hold its learners ends
  // here, before any rank has started.
  std::unique_ptr<OtherRanks> others;
  if (me.ranks > 1) others = link_other_ranks(me, cfg, master());
  else if (cfg.learners > 1)
    run.log("distributed.learners is " + std::to_string(cfg.learners) +
            ", but this process is the only rank: it trains alone (launch with mpirun for more learners)");
  Learner learner(model, trainer, replay, cfg.learner_options(me.learners), state.sampler);
  if (others) others->start_learners(model, trainer, replay);
  RunEvaluator evaluator(*game,
                         {.opponents = cfg.eval_opponents,
                          .games = cfg.eval_games,
                          .previous = cfg.eval_previous,
                          .ladder_rungs = cfg.eval_ladder_rungs,
                          .search = cfg.eval_search,
                          .seed = cfg.seed},
                         run);
  const auto on_game = [&](const SelfPlayGame& g, const State& final_state) {
    if (cfg.save_games) run.append_game(game_line(g, final_state));
  };
  std::unique_ptr<ActorPool> pool;
  if (others)
    pool = others->actors(*game, learner.snapshot(), step, replay, on_game);
  else
    pool = std::make_unique<Actors>(
        *game, Actors::Options{.workers = cfg.workers, .search = cfg.search, .self_play = cfg.self_play, .inference = cfg.inference},
        learner.snapshot(), step, &replay, state.actor_streams, master(), on_game);
  ActorPool& actors = *pool;
  std::vector<std::string> columns = {"step", "seconds", "games", "positions", "replay_positions"};
  for (const auto& c : Learner::metric_columns()) columns.push_back(c);
  for (const auto& c : SelfPlayMetrics::columns()) columns.push_back(c);
  for (const auto& c : evaluator.metric_columns()) columns.push_back(c);
  for (const auto& c : actors.metric_columns()) columns.push_back(c);
  MetricsFile metrics(run.metrics_path(), columns,
                      state.resume_step ? std::optional<MetricsCut>({*state.resume_step, state.metrics_rows}) : std::nullopt);
  if (const std::optional<double> elo = metrics.last_kept("ladder_elo")) evaluator.resume_at_ladder_elo(*elo);

  const std::int64_t games_before = progress.games, positions_before = progress.positions;
  // Positions searched in the whole run, finished games or not: what the replay ratio counts.
  auto produced = [&] { return positions_before + static_cast<std::int64_t>(actors.searches()); };
  auto totals = [&] {
    const SelfPlayTally t = actors.tally();
    return std::pair{games_before + t.games, positions_before + t.positions};
  };

  run.log(std::string(options.resume ? "resuming " : "training ") + game->to_string() + " in " + dir + " at step " +
          std::to_string(step) + ": network " + std::to_string(cfg.network.blocks) + "x" +
          std::to_string(cfg.network.channels) + " (" + std::to_string(model.num_parameters()) + " parameters) on " +
          device_name(model.device()) + ", " +
          std::string(algorithm_name(cfg.search.algorithm)) + " search with " + std::to_string(cfg.search.simulations) +
          " simulations, replay " + std::to_string(replay.positions()) + " positions; memory " +
          estimate_training_memory(cfg, *game).describe() +
          (me.ranks > 1 ? "; self-play on " + actors.traffic() + ", this " + me.role() + " trains" +
                              (me.learners > 1 ? " with " + std::to_string(me.learners - 1) + " more learner ranks" : "")
                        : ""));

  auto elapsed = [&] {
    return progress.seconds_before + std::chrono::duration<double>(Clock::now() - session_start).count();
  };

  // ---- checkpoints: the actors stand still so their streams and the replay agree.
  std::int64_t last_checkpoint = state.resume_step ? step : -1;
  std::pair<std::int64_t, std::int64_t> checkpointed_totals = totals();
  auto checkpoint = [&] {
    actors.pause();
    const auto [games, positions] = totals();
    checkpointed_totals = {games, positions};
    std::vector<std::array<std::uint64_t, 4>> streams = {master.state(), learner.sampler().state()};
    for (const auto& s : actors.rng_states()) streams.push_back(s);
    const CheckpointInfo info{game->to_string(), cfg.network, step,    games,           positions,
                              elapsed(),          cfg.yaml,     streams, run.sync_games(), metrics.rows()};
    run.commit_checkpoint(
        step, cfg.checkpoint_keep, [&](const std::string& path) { replay.save(path); },
        [&](const std::string& path) { save_checkpoint(path, model, &trainer, info); });
    last_checkpoint = step;
    actors.resume();
  };

  // ---- metrics rows: one per progress line, one per evaluation (with its step, always).
  SelfPlayMetrics self_play_metrics;
  auto write_row = [&](const std::optional<RunEvaluation>& evaluation) {
    const auto [games, positions] = totals();
    MetricsRow row = learner.take_metrics(produced());
    row.merge(self_play_metrics.take(actors, *game));
    row.merge(actors.take_metrics());
    if (evaluation) row.merge(evaluator.metrics(*evaluation));
    row["step"] = std::to_string(step);
    row["seconds"] = metric_number(elapsed(), 1);
    row["games"] = std::to_string(games);
    row["positions"] = std::to_string(positions);
    row["replay_positions"] = std::to_string(replay.positions());
    metrics.append(row);
    return row;
  };

  double last_eval_seconds = 0;
  std::optional<RunEvaluation> last_eval;
  // The time limit covers the final evaluation too: training stops early enough for it,
  // guessing its length from the previous evaluation, and no evaluation runs past it. The
  // guess has a margin: a stronger network plays longer games, and a 60-minute run's final
  // evaluation was cut by the limit when the guess was the previous length alone.
  constexpr double kFinalEvaluationMargin = 1.5;
  // The share of run.max_minutes spent, the final evaluation's guessed length included (0 without a limit).
  auto time_spent = [&] {
    return cfg.max_minutes > 0 ? (elapsed() + kFinalEvaluationMargin * last_eval_seconds) / (cfg.max_minutes * 60) : 0.0;
  };
  auto out_of_time = [&] { return time_spent() >= 1; };
  // Returns whether the evaluation was recorded (not stopped, not out of time).
  auto evaluate = [&] {
    actors.pause();
    const double time_left = cfg.max_minutes * 60 - elapsed();
    bool recorded = false;
    if (cfg.max_minutes > 0 && time_left <= 0) {
      run.log("no evaluation at step " + std::to_string(step) + ": run.max_minutes is spent");
    } else if (auto evaluation = evaluator.evaluate(learner.snapshot(), step, cfg.max_minutes > 0 ? time_left : 0)) {
      last_eval = std::move(evaluation);
      last_eval_seconds = last_eval->seconds;
      write_row(last_eval);
      recorded = true;
    }
    actors.resume();
    return recorded;
  };

  // ---- the loop: this thread is the learner; the actors play on their own threads.
  const std::int64_t first_step = step;
  auto last_log = Clock::now();
  actors.start();
  while (step < cfg.max_steps && !stop_requested() && !out_of_time()) {
    actors.check();
    const std::int64_t produced_now = produced();
    learner.observe(produced_now);
    actors.hold(learner.actors_ahead(produced_now));
    if (!learner.may_step(produced_now)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    } else {
      // The schedule anneals by the end of the loop, which the time limit may bring first.
      const double time_fraction = time_spent();
      trainer.set_time_fraction(time_fraction);
      if (others) others->step_learners(time_fraction);
      learner.step();
      ++step;
      actors.set_learner_step(step);
      if (step % cfg.publish_every == 0) actors.publish(learner.snapshot(), step);
      // An evaluation before the checkpoint of its step, which then holds its row and files.
      if (cfg.eval_every > 0 && step % cfg.eval_every == 0) evaluate();
      if (step % cfg.checkpoint_every == 0) checkpoint();
    }
    if (std::chrono::duration<double>(Clock::now() - last_log).count() < cfg.log_every_seconds) continue;
    last_log = Clock::now();
    const MetricsRow row = write_row(std::nullopt);
    const double session = std::chrono::duration<double>(Clock::now() - session_start).count();
    const double steps_rate = static_cast<double>(step - first_step) / std::max(session, 1e-9);
    double eta = steps_rate > 0 ? static_cast<double>(cfg.max_steps - step) / steps_rate : 1e9;
    if (cfg.max_minutes > 0) eta = std::min(eta, cfg.max_minutes * 60 - elapsed());
    run.log(progress_line(row, step, cfg, last_eval, replay.positions(), elapsed(), eta));
  }
  actors.stop();
  actors.check();

  // ---- the end: a checkpoint and an evaluation of the final network, unless one ran a
  // few steps ago. The actors play on between the loop's last checkpoint and their stop:
  // the games they finish then are checkpointed too, so the run's totals are its record's.
  if (last_checkpoint != step || totals() != checkpointed_totals) checkpoint();
  const bool recent = last_eval && cfg.eval_every > 0 && step - last_eval->step < cfg.eval_every / 4;
  if (!stop_requested() && !recent && (!last_eval || last_eval->step != step) && evaluate())
    checkpoint();  // again: the evaluation's row and files join the run's last moment
  // After the last checkpoint: a mismatch it reports leaves the run's record whole.
  if (others) others->stop_learners(model);
  const bool stopped = stop_requested();
  if (!actors.traffic().empty()) run.log("traffic: " + actors.traffic());
  const auto [games, positions] = totals();
  run.log(std::string(stopped ? "stopped" : "finished") + " at step " + std::to_string(step) + " after " +
          duration(elapsed()) + ": " + std::to_string(games) + " games, " + std::to_string(positions) + " positions");
  TrainSummary summary;
  summary.run_dir = dir;
  summary.latest_checkpoint = run.latest_checkpoint();
  summary.steps = step;
  summary.games = games;
  summary.positions = positions;
  summary.seconds = elapsed();
  summary.final_evaluation = last_eval ? last_eval->table : "";
  summary.stopped = stopped;
  return summary;
}

}  // namespace

TrainSummary train(const TrainOptions& options) {
  RankInfo me = join_job();
  return run_as_rank(me, [&] {
    if (me.rank > 0)
      return follow_rank_zero(me, options.log ? options.log : [](const std::string& line) { std::cerr << line << std::endl; });
    return train_here(options, me);
  });
}

}  // namespace boardlab
