// The training run's steps: actors and learner at the same time, with checkpoints, evaluations and metrics.
#include "nn/training_run.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <thread>

#include "core/stop.h"
#include "files/atomic_file.h"
#include "games/registry.h"
#include "nn/checkpoint.h"
#include "nn/device.h"
#include "nn/memory_estimate.h"
#include "nn/progress_line.h"

namespace boardlab {
namespace {

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

TrainOptions with_default_log(TrainOptions options) {
  if (!options.log) options.log = [](const std::string& line) { std::cerr << line << std::endl; };
  return options;
}

// The checkpoint's network, or a fresh one; on its device before the trainer is built, so
// that the optimizer follows the parameters.
Model first_model(RunState& state, const TrainConfig& cfg, const Game& game) {
  Model model = state.model ? std::move(*state.model) : Model(cfg.network, game, cfg.seed);
  state.model.reset();
  model.to_device(resolve_device(cfg.network.device));
  return model;
}

// The time limit covers the final evaluation too: training stops early enough for it,
// guessing its length from the previous evaluation, and no evaluation runs past it. The
// guess has a margin: a stronger network plays longer games, and a 60-minute run's final
// evaluation was cut by the limit when the guess was the previous length alone.
constexpr double kFinalEvaluationMargin = 1.5;
// Before any evaluation has been timed there is nothing to guess from: a run that reaches its
// limit first (a 15-minute run evaluating every 2,500 steps on a slow machine) held nothing back
// and ended with no evaluation at all. It holds this share of its time instead.
constexpr double kUntimedEvaluationShare = 0.1;

}  // namespace

TrainingRun::TrainingRun(const TrainOptions& options, RankInfo& me)
    : options_(with_default_log(options)),
      me_(me),
      opened_(open_run(options_, options_.log)),
      cfg_(opened_.cfg),
      folder_(*opened_.folder),
      game_(load_game(cfg_.game)),
      state_(restore(opened_, *game_, options_.resume)),
      step_(state_.step),
      model_(first_model(state_, cfg_, *game_)),
      trainer_(model_, cfg_.training),
      replay_(*game_, cfg_.replay.window) {
  if (state_.resume_step) load_optimizer(state_.checkpoint_path, trainer_);
  restore_replay(folder_, state_, replay_);
  // Only once a resume's checkpoint and replay have loaded and match the config: a refused
  // resume must leave config.yaml and the folder as they were, or a plain --resume would
  // fail from then on.
  write_file_atomically(folder_.config_path(), cfg_.yaml);
  if (options_.resume) folder_.rewind(state_.resume_step.value_or(-1), state_.games_file_bytes);
  build_parts();
  last_checkpoint_ = state_.resume_step ? step_ : -1;
  checkpointed_totals_ = totals();
  log_opening();
}

TrainingRun::~TrainingRun() = default;

// The other ranks get the run's config first: a job that cannot hold its learners ends
// here, before any rank has started.
void TrainingRun::build_parts() {
  Rng& master = state_.master;
  if (me_.ranks > 1) others_ = link_other_ranks(me_, cfg_, master());
  else if (cfg_.distributed.learners > 1)
    folder_.log("distributed.learners is " + std::to_string(cfg_.distributed.learners) +
                ", but this process is the only rank: it trains alone (launch with mpirun for more learners)");
  learner_ = std::make_unique<Learner>(model_, trainer_, replay_, cfg_.learner_options(me_.learners), state_.sampler);
  if (others_) others_->start_learners(model_, trainer_, replay_);
  evaluator_ = std::make_unique<RunEvaluator>(*game_,
                                              RunEvaluatorOptions{.opponents = cfg_.evaluation.opponents,
                                                                  .games = cfg_.evaluation.games,
                                                                  .previous = cfg_.evaluation.previous_checkpoint,
                                                                  .ladder_rungs = cfg_.evaluation.ladder_rungs,
                                                                  .search = cfg_.eval_search,
                                                                  .seed = cfg_.seed},
                                              folder_);
  const auto on_game = [this](const SelfPlayGame& g, const State& final_state) {
    if (cfg_.self_play.save_games) folder_.append_game(game_line(g, final_state));
  };
  if (others_)
    pool_ = others_->actors(*game_, learner_->snapshot(), step_, replay_, on_game);
  else
    pool_ = std::make_unique<Actors>(*game_,
                                     Actors::Options{.workers = cfg_.self_play.workers, .search = cfg_.search,
                                                     .self_play = cfg_.self_play, .inference = cfg_.inference},
                                     learner_->snapshot(), step_, &replay_, state_.actor_streams, master(), on_game);
  std::vector<std::string> columns = {"step", "seconds", "games", "positions", "replay_positions"};
  for (const auto& c : Learner::metric_columns()) columns.push_back(c);
  for (const auto& c : SelfPlayMetrics::columns()) columns.push_back(c);
  for (const auto& c : evaluator_->metric_columns()) columns.push_back(c);
  for (const auto& c : actors().metric_columns()) columns.push_back(c);
  const std::optional<MetricsCut> cut =
      state_.resume_step ? std::optional<MetricsCut>({*state_.resume_step, state_.metrics_rows}) : std::nullopt;
  metrics_ = std::make_unique<MetricsFile>(folder_.metrics_path(), columns, cut);
  if (const std::optional<double> elo = metrics_->last_kept("ladder_elo")) evaluator_->resume_at_ladder_elo(*elo);
}

void TrainingRun::log_opening() {
  const NetworkConfig& net = cfg_.network;
  std::string ranks;
  if (me_.ranks > 1)
    ranks = "; self-play on " + actors().traffic() + ", this " + me_.role() + " trains" +
            (me_.learners > 1 ? " with " + std::to_string(me_.learners - 1) + " more learner ranks" : "");
  folder_.log(std::string(options_.resume ? "resuming " : "training ") + game_->to_string() + " in " + dir() +
              " at step " + std::to_string(step_) + ": network " + std::to_string(net.blocks) + "x" +
              std::to_string(net.channels) + " (" + std::to_string(model_.num_parameters()) + " parameters) on " +
              device_name(model_.device()) + ", " + std::string(algorithm_name(cfg_.search.algorithm)) +
              " search with " + std::to_string(cfg_.search.simulations) + " simulations, replay " +
              std::to_string(replay_.positions()) + " positions; memory " +
              estimate_training_memory(cfg_, *game_).describe() + ranks);
}

double TrainingRun::elapsed() const {
  return state_.progress.seconds_before + std::chrono::duration<double>(Clock::now() - session_start_).count();
}

// Positions searched in the whole run, finished games or not: what the replay ratio counts.
std::int64_t TrainingRun::produced() const {
  return state_.progress.positions + static_cast<std::int64_t>(pool_->searches());
}

std::pair<std::int64_t, std::int64_t> TrainingRun::totals() const {
  const SelfPlayTally t = pool_->tally();
  return {state_.progress.games + t.games, state_.progress.positions + t.positions};
}

double TrainingRun::time_spent() const {
  if (cfg_.run.max_minutes <= 0) return 0.0;
  const double limit = cfg_.run.max_minutes * 60;
  const double held = last_eval_ ? kFinalEvaluationMargin * last_eval_->seconds : kUntimedEvaluationShare * limit;
  return (elapsed() + held) / limit;
}

// The actors stand still so their streams and the replay agree.
void TrainingRun::checkpoint() {
  actors().pause();
  const auto [games, positions] = totals();
  checkpointed_totals_ = {games, positions};
  std::vector<std::array<std::uint64_t, 4>> streams = {state_.master.state(), learner_->sampler().state()};
  for (const auto& s : actors().rng_states()) streams.push_back(s);
  const CheckpointInfo info{game_->to_string(), cfg_.network, step_,    games,
                            positions,          elapsed(),    cfg_.yaml, streams,
                            folder_.sync_games(), metrics_->rows()};
  folder_.commit_checkpoint(
      step_, cfg_.checkpoint.keep, [&](const std::string& path) { replay_.save(path); },
      [&](const std::string& path) { save_checkpoint(path, model_, &trainer_, info); });
  last_checkpoint_ = step_;
  actors().resume();
}

// One row per progress line, one per evaluation (with its step, always).
MetricsRow TrainingRun::write_row(const std::optional<RunEvaluation>& evaluation) {
  const auto [games, positions] = totals();
  MetricsRow row = learner_->take_metrics(produced());
  row.merge(self_play_metrics_.take(actors(), *game_));
  row.merge(actors().take_metrics());
  if (evaluation) row.merge(evaluator_->metrics(*evaluation));
  row["step"] = std::to_string(step_);
  row["seconds"] = metric_number(elapsed(), 1);
  row["games"] = std::to_string(games);
  row["positions"] = std::to_string(positions);
  row["replay_positions"] = std::to_string(replay_.positions());
  metrics_->append(row);
  return row;
}

bool TrainingRun::evaluate() {
  actors().pause();
  const double time_left = cfg_.run.max_minutes * 60 - elapsed();
  bool recorded = false;
  if (cfg_.run.max_minutes > 0 && time_left <= 0) {
    folder_.log("no evaluation at step " + std::to_string(step_) + ": run.max_minutes is spent");
  } else if (auto evaluation = evaluator_->evaluate(learner_->snapshot(), step_, cfg_.run.max_minutes > 0 ? time_left : 0)) {
    last_eval_ = std::move(evaluation);
    write_row(last_eval_);
    recorded = true;
  }
  actors().resume();
  return recorded;
}

void TrainingRun::start() {
  first_step_ = step_;
  last_log_ = Clock::now();
  actors().start();
}

bool TrainingRun::running() { return step_ < cfg_.run.max_steps && !stop_requested() && time_spent() < 1; }

void TrainingRun::advance() {
  actors().check();
  const std::int64_t produced_now = produced();
  learner_->observe(produced_now);
  actors().hold(learner_->actors_ahead(produced_now));
  if (learner_->may_step(produced_now)) train_step();
  else std::this_thread::sleep_for(std::chrono::milliseconds(2));
  if (std::chrono::duration<double>(Clock::now() - last_log_).count() < cfg_.run.log_every_seconds) return;
  last_log_ = Clock::now();
  log_progress();
}

void TrainingRun::train_step() {
  // The schedule anneals by the end of the loop, which the time limit may bring first.
  const double time_fraction = time_spent();
  trainer_.set_time_fraction(time_fraction);
  if (others_) others_->step_learners(time_fraction);
  learner_->step();
  ++step_;
  actors().set_learner_step(step_);
  if (step_ % cfg_.training.publish_every_steps == 0) actors().publish(learner_->snapshot(), step_);
  // An evaluation before the checkpoint of its step, which then holds its row and files.
  if (cfg_.evaluation.every_steps > 0 && step_ % cfg_.evaluation.every_steps == 0) evaluate();
  if (step_ % cfg_.checkpoint.every_steps == 0) checkpoint();
}

void TrainingRun::log_progress() {
  const MetricsRow row = write_row(std::nullopt);
  const double session = std::chrono::duration<double>(Clock::now() - session_start_).count();
  const double steps_rate = static_cast<double>(step_ - first_step_) / std::max(session, 1e-9);
  double eta = steps_rate > 0 ? static_cast<double>(cfg_.run.max_steps - step_) / steps_rate : 1e9;
  if (cfg_.run.max_minutes > 0) eta = std::min(eta, cfg_.run.max_minutes * 60 - elapsed());
  folder_.log(progress_line(row, step_, cfg_, last_eval_, replay_.positions(), elapsed(), eta));
}

// The actors play on between the loop's last checkpoint and their stop: the games they
// finish then are checkpointed too, so the run's totals are its record's.
TrainSummary TrainingRun::finish() {
  actors().stop();
  actors().check();
  if (last_checkpoint_ != step_ || totals() != checkpointed_totals_) checkpoint();
  const bool recent = last_eval_ && cfg_.evaluation.every_steps > 0 && step_ - last_eval_->step < cfg_.evaluation.every_steps / 4;
  if (!stop_requested() && !recent && (!last_eval_ || last_eval_->step != step_) && evaluate())
    checkpoint();  // again: the evaluation's row and files join the run's last moment
  // After the last checkpoint: a mismatch it reports leaves the run's record whole.
  if (others_) others_->stop_learners(model_);
  const bool stopped = stop_requested();
  if (!actors().traffic().empty()) folder_.log("traffic: " + actors().traffic());
  const auto [games, positions] = totals();
  folder_.log(std::string(stopped ? "stopped" : "finished") + " at step " + std::to_string(step_) + " after " +
              duration(elapsed()) + ": " + std::to_string(games) + " games, " + std::to_string(positions) + " positions");
  return TrainSummary{.run_dir = dir(),
                      .latest_checkpoint = folder_.latest_checkpoint(),
                      .steps = step_,
                      .games = games,
                      .positions = positions,
                      .seconds = elapsed(),
                      .final_evaluation = last_eval_ ? last_eval_->table : "",
                      .stopped = stopped};
}

TrainSummary TrainingRun::run() {
  start();
  while (running()) advance();
  return finish();
}

}  // namespace boardlab
