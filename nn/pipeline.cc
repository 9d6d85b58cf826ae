// The training loop and the run folder it keeps.
#include "core/steps.h"
#include "nn/pipeline.h"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "core/arena.h"
#include "core/atomic_file.h"
#include "core/errors.h"
#include "games/registry.h"
#include "nn/agent_bot.h"
#include "nn/checkpoint.h"
#include "nn/inference_server.h"
#include "nn/replay_buffer.h"
#include "nn/self_play.h"
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

std::string duration(double seconds) {
  const auto s = static_cast<long>(std::max(0.0, seconds));
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

std::string number(double value, int decimals = 0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string step_name(std::int64_t step) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "step_%06lld", static_cast<long long>(step));
  return buf;
}

// metrics.csv: one row per training cycle. On resume, rows past the checkpoint are dropped
// so the file describes exactly the run that continues.
class Metrics {
 public:
  Metrics(std::string path, const std::vector<std::string>& opponents, std::optional<std::int64_t> resume_step)
      : path_(std::move(path)) {
    header_ = "step,seconds,games,positions,replay_positions,policy_loss,value_loss,l2,total_loss,learning_rate,"
              "games_per_s,positions_per_s,simulations_per_s,mean_batch,elo,elo_low,elo_high";
    for (const auto& o : opponents) header_ += ",score_vs_" + o;
    header_ += ",score_vs_previous";
    std::string kept = header_ + "\n";
    if (resume_step && fs::exists(path_)) {
      std::istringstream in(read_file(path_));
      std::string line;
      std::getline(in, line);
      while (std::getline(in, line)) {
        std::int64_t row_step = 0;
        const auto comma = line.find(',');
        auto [end, ec] = std::from_chars(line.data(), line.data() + std::min(comma, line.size()), row_step);
        if (ec == std::errc() && row_step <= *resume_step) kept += line + "\n";
      }
    }
    write_file_atomically(path_, kept);
  }
  void append(const std::string& row) {
    std::ofstream out(path_, std::ios::app);
    out << row << "\n";
  }

 private:
  std::string path_;
  std::string header_;
};

struct EvalResult {
  std::string table;
  double elo = 0, low = 0, high = 0;
  std::vector<double> scores;  // vs each opponent, then vs previous (NaN when absent)
};

}  // namespace

TrainSummary train(const TrainOptions& options) {
  const auto log_fn = options.log ? options.log : [](const std::string& line) { std::cerr << line << std::endl; };
  const std::atomic<bool> never{false};
  const std::atomic<bool>& stop = options.stop ? *options.stop : never;
  const auto session_start = Clock::now();

  // ---- configuration and run folder
  TrainConfig cfg;
  std::string dir = options.out_dir;
  if (options.resume) {
    if (dir.empty()) throw InputError("resume: name the run folder to continue");
    const std::string config_path = (fs::path(dir) / "config.yaml").string();
    if (!fs::exists(config_path)) throw InputError("resume: '" + dir + "' is not a run folder (no config.yaml)");
    cfg = load_train_config(config_path, options.overrides);
  } else {
    if (options.config_path.empty()) throw InputError("train: a config file is required (--config)");
    cfg = load_train_config(options.config_path, options.overrides);
    if (dir.empty()) dir = (fs::path("runs") / (load_game(cfg.game)->name() + "-" + stamp())).string();
    if (fs::exists(fs::path(dir) / "config.yaml"))
      throw InputError("run folder '" + dir + "' already holds a run: resume it with --resume, or choose another --out");
  }
  const fs::path run(dir);
  fs::create_directories(run / "checkpoints");
  fs::create_directories(run / "games");
  fs::create_directories(run / "evaluation");
  std::ofstream log_file(run / "log.txt", std::ios::app);
  std::mutex log_mutex;
  auto log = [&](const std::string& line) {
    std::lock_guard lock(log_mutex);
    log_file << line << std::endl;
    log_fn(line);
  };

  const std::shared_ptr<const Game> game = load_game(cfg.game);
  const std::string latest_path = (run / "checkpoints" / "latest.pt").string();
  const std::string replay_path = (run / "replay.bin").string();

  // ---- state: fresh, or from the latest checkpoint
  std::int64_t step = 0, games = 0, positions = 0;
  double seconds_before = 0;
  Rng master(cfg.seed), sampler(cfg.seed ^ 0x5a4d91e7ULL);
  std::optional<Model> loaded;
  std::optional<std::int64_t> resume_step;
  if (options.resume) {
    if (!fs::exists(latest_path)) throw InputError("resume: '" + dir + "' has no checkpoint yet (checkpoints/latest.pt)");
    Checkpoint checkpoint = load_checkpoint(latest_path);
    if (checkpoint.game->to_string() != game->to_string())
      throw InputError("resume: the checkpoint plays " + checkpoint.game->to_string() + " but the config says " + cfg.game);
    const NetworkConfig& n = checkpoint.info.network;
    if (n.blocks != cfg.network.blocks || n.channels != cfg.network.channels ||
        n.policy_channels != cfg.network.policy_channels || n.value_hidden != cfg.network.value_hidden)
      throw InputError("resume: the config's network differs from the checkpoint's; a run cannot change its network");
    step = checkpoint.info.step;
    games = checkpoint.info.games;
    positions = checkpoint.info.positions;
    seconds_before = checkpoint.info.seconds;
    if (checkpoint.info.rng_states.size() >= 2) {
      master.set_state(checkpoint.info.rng_states[0]);
      sampler.set_state(checkpoint.info.rng_states[1]);
    }
    loaded.emplace(std::move(checkpoint.model));
    resume_step = step;
  }
  Model model = loaded ? std::move(*loaded) : Model(cfg.network, *game, cfg.seed);
  Trainer trainer(model, cfg.optimizer);
  if (options.resume) load_optimizer(latest_path, trainer);
  ReplayBuffer replay(*game, cfg.replay_window);
  if (options.resume && fs::exists(replay_path)) replay.load(replay_path);
  // Only once a resume's checkpoint and replay have loaded and match the config: a refused
  // resume must leave config.yaml as it was, or a plain --resume would fail from then on.
  write_file_atomically((run / "config.yaml").string(), cfg.yaml);
  Metrics metrics((run / "metrics.csv").string(), cfg.eval_opponents, resume_step);
  std::ofstream selfplay_games(run / "games" / "selfplay.txt", std::ios::app);

  log(std::string(options.resume ? "resuming " : "training ") + game->to_string() + " in " + dir + " at step " +
      std::to_string(step) + ": network " + std::to_string(cfg.network.blocks) + "x" +
      std::to_string(cfg.network.channels) + " (" + std::to_string(model.num_parameters()) + " parameters), " +
      std::string(algorithm_name(cfg.search.algorithm)) + " search with " + std::to_string(cfg.search.simulations) +
      " simulations, replay " + std::to_string(replay.positions()) + " positions");

  // ---- checkpoints
  std::int64_t last_checkpoint = options.resume ? step : -1;
  auto checkpoint = [&]() {
    const double seconds = seconds_before + std::chrono::duration<double>(Clock::now() - session_start).count();
    CheckpointInfo info{game->to_string(), cfg.network, step, games, positions, seconds, cfg.yaml, {master.state(), sampler.state()}};
    const std::string path = (run / "checkpoints" / (step_name(step) + ".pt")).string();
    replay.save(replay_path);
    save_checkpoint(path, model, &trainer, info);
    // latest.pt becomes a hard link to the new file in one rename: never missing, never partial.
    const std::string temporary = temporary_path_for(latest_path);
    fs::remove(temporary);
    fs::create_hard_link(path, temporary);
    commit_file_atomically(temporary, latest_path);
    if (cfg.checkpoint_keep > 0) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(run / "checkpoints"))
        if (entry.path().filename().string().starts_with("step_")) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      for (std::size_t i = 0; i + cfg.checkpoint_keep + 1 < files.size(); ++i) fs::remove(files[i]);
    }
    last_checkpoint = step;
  };

  // ---- evaluation
  std::optional<Model> previous;
  std::int64_t previous_step = 0;
  double last_eval_seconds = 0;
  std::string last_table;
  auto evaluate = [&]() -> EvalResult {
    auto current = std::make_shared<const Model>(model.clone());
    const std::string current_name = "net@" + std::to_string(step);
    std::vector<std::string> players = {current_name};
    for (const auto& o : cfg.eval_opponents) players.push_back(o);
    std::shared_ptr<const Model> prev;
    std::string prev_name;
    if (cfg.eval_previous && previous) {
      prev = std::make_shared<const Model>(previous->clone());
      prev_name = "net@" + std::to_string(previous_step);
      if (prev_name != current_name) players.push_back(prev_name);
    }
    const BotFactory factory = [&](std::string_view spec, const Game& g, std::uint64_t seed) -> std::unique_ptr<Bot> {
      if (spec == current_name) return make_network_bot(current, g, cfg.eval_search, seed);
      if (!prev_name.empty() && spec == prev_name) return make_network_bot(prev, g, cfg.eval_search, seed);
      return make_any_bot(spec, g, seed);
    };
    ArenaOptions arena;
    arena.games = cfg.eval_games;
    arena.seed = cfg.seed * 1000003 + static_cast<std::uint64_t>(step);
    arena.anchor = default_anchor(players);
    Model::set_torch_threads(1);
    const ArenaReport report =
        run_arena(*game, players, focus_groups(0, static_cast<int>(players.size()), game->num_players()), factory, arena);
    const std::string base = (run / "evaluation" / step_name(step)).string();
    write_file_atomically(base + ".txt", report.table());
    write_file_atomically(base + ".json", report.json());
    EvalResult result;
    result.table = report.table();
    result.elo = report.elo.elo[0];
    result.low = report.elo.low[0];
    result.high = report.elo.high[0];
    auto score_against = [&](const std::string& name) {
      for (const Pairing& p : report.pairings)
        if (p.a == 0 && players[p.b] == name) return p.score();
      return std::nan("");
    };
    for (const auto& o : cfg.eval_opponents) result.scores.push_back(score_against(o));
    result.scores.push_back(prev_name.empty() ? std::nan("") : score_against(prev_name));
    previous.emplace(model.clone());
    previous_step = step;
    last_table = result.table;
    last_eval_seconds = report.seconds;
    log("evaluation at step " + std::to_string(step) + " (" + number(report.seconds, 0) + " s):\n" + result.table);
    return result;
  };

  // ---- the loop
  InferenceServer server(model, cfg.inference);
  std::vector<std::unique_ptr<SelfPlayWorker>> workers;
  for (int w = 0; w < cfg.workers; ++w)
    workers.push_back(std::make_unique<SelfPlayWorker>(*game, cfg.search, cfg.self_play, server, master()));
  std::mutex sink_mutex;
  auto sink = [&](SelfPlayGame&& g) {
    std::string line;
    if (cfg.save_games) {
      // "[returns] record", and " (truncated)" after a game a cap ended (its record
      // reproduces that too: the cap is a parameter of the game).
      std::unique_ptr<State> replayed = game->new_initial_state();
      apply_steps(*replayed, g.steps);
      std::string returns;
      char text[32];
      for (double r : g.returns) {
        std::snprintf(text, sizeof text, "%.6g", r);
        returns += (returns.empty() ? "" : ",") + std::string(text);
      }
      line = "[" + returns + "] " + replayed->record() + (g.truncated ? " (truncated)" : "") + "\n";
    }
    replay.add(g);
    std::lock_guard lock(sink_mutex);
    ++games;
    positions += static_cast<std::int64_t>(g.positions.size());
    if (cfg.save_games) selfplay_games << line;
  };

  auto elapsed = [&] { return seconds_before + std::chrono::duration<double>(Clock::now() - session_start).count(); };
  // The time limit covers the final evaluation too: training stops early enough for it,
  // guessing its length from the previous evaluation.
  auto out_of_time = [&] { return cfg.max_minutes > 0 && elapsed() + last_eval_seconds >= cfg.max_minutes * 60; };
  // The Elo columns of a metrics row: filled on the rows of cycles that ended with an evaluation.
  auto eval_columns = [&](const std::optional<EvalResult>& e) {
    std::string out;
    if (!e) return std::string(3 + cfg.eval_opponents.size() + 1, ',');
    out = "," + number(e->elo, 1) + "," + number(e->low, 1) + "," + number(e->high, 1);
    for (double score : e->scores) out += "," + (std::isnan(score) ? std::string() : number(score, 3));
    return out;
  };
  const std::int64_t first_step = step;
  const std::int64_t games_at_start = games, positions_at_start = positions;
  double play_total = 0;
  auto last_log = Clock::now() - std::chrono::hours(1);
  std::optional<EvalResult> last_eval;
  std::int64_t last_eval_step = -1;

  while (step < cfg.max_steps && !stop && !out_of_time()) {
    // Self-play: every worker plays its share of the cycle's positions.
    const auto cycle_start = Clock::now();
    const std::int64_t positions_before = positions;
    server.reset_stats();
    std::vector<std::thread> threads;
    const std::int64_t share = (cfg.positions_per_cycle + cfg.workers - 1) / cfg.workers;
    std::exception_ptr worker_error;
    std::mutex error_mutex;
    for (auto& w : workers) {
      threads.emplace_back([&, worker = w.get()] {
        try {
          worker->run(share, stop, sink);
        } catch (...) {
          std::lock_guard lock(error_mutex);
          worker_error = std::current_exception();
        }
      });
    }
    for (auto& t : threads) t.join();
    if (worker_error) std::rethrow_exception(worker_error);
    const double play_seconds = std::chrono::duration<double>(Clock::now() - cycle_start).count();
    std::uint64_t sims = 0;
    for (const auto& w : workers) sims += w->simulations();
    const InferenceStats inference = server.stats();
    const std::int64_t new_positions = positions - positions_before;

    // Training: samples_per_position samples for every new position.
    double policy = 0, value = 0, l2 = 0, total = 0;
    int trained = 0;
    if (replay.positions() >= cfg.replay_min_positions && !stop) {
      const auto steps_now = std::max<std::int64_t>(
          1, std::llround(static_cast<double>(new_positions) * cfg.samples_per_position / cfg.batch_size));
      Model::set_torch_threads(cfg.train_threads);
      TrainBatch batch;
      for (std::int64_t k = 0; k < steps_now && step < cfg.max_steps && !stop; ++k) {
        replay.sample(cfg.batch_size, sampler, cfg.augment, batch);
        const TrainLosses losses = trainer.step(batch);
        ++step;
        ++trained;
        policy += losses.policy;
        value += losses.value;
        l2 += losses.l2;
        total += losses.total;
        if (step % cfg.checkpoint_every == 0) checkpoint();
        if (cfg.eval_every > 0 && step % cfg.eval_every == 0) {
          last_eval = evaluate();
          last_eval_step = step;
          Model::set_torch_threads(cfg.train_threads);
        }
      }
      Model::set_torch_threads(1);
    }
    if (trained > 0) {
      policy /= trained;
      value /= trained;
      l2 /= trained;
      total /= trained;
    }

    // The last cycle evaluates the final network, so that its row carries the final Elo,
    // unless an evaluation ran a few steps ago.
    const bool recently = last_eval_step >= 0 && cfg.eval_every > 0 && step - last_eval_step < cfg.eval_every / 4;
    if (!stop && last_eval_step != step && !recently && (step >= cfg.max_steps || out_of_time())) {
      last_eval = evaluate();
      last_eval_step = step;
    }

    // Progress and metrics.
    // Games end in bursts (a worker's games start together), so rates are averaged over
    // this session's self-play time rather than over one cycle.
    play_total += play_seconds;
    const double games_per_s = static_cast<double>(games - games_at_start) / play_total;
    const double positions_per_s = static_cast<double>(positions - positions_at_start) / play_total;
    const double sims_per_s = static_cast<double>(sims) / play_total;
    std::string row = std::to_string(step) + "," + number(elapsed(), 1) + "," + std::to_string(games) + "," +
                      std::to_string(positions) + "," + std::to_string(replay.positions()) + "," +
                      (trained ? number(policy, 4) + "," + number(value, 4) + "," + number(l2, 5) + "," + number(total, 4)
                               : std::string(",,,")) +
                      "," + number(trainer.learning_rate(), 6) + "," + number(games_per_s, 2) + "," +
                      number(positions_per_s, 1) + "," + number(sims_per_s, 0) + "," + number(inference.mean_batch(), 1);
    metrics.append(row + eval_columns(last_eval_step == step ? last_eval : std::nullopt));
    if (std::chrono::duration<double>(Clock::now() - last_log).count() >= cfg.log_every_seconds) {
      last_log = Clock::now();
      const double session = std::chrono::duration<double>(Clock::now() - session_start).count();
      const double steps_rate = static_cast<double>(step - first_step) / std::max(session, 1e-9);
      double eta = steps_rate > 0 ? static_cast<double>(cfg.max_steps - step) / steps_rate : 1e9;
      if (cfg.max_minutes > 0) eta = std::min(eta, cfg.max_minutes * 60 - elapsed());
      std::string line = "step " + std::to_string(step) + "/" + std::to_string(cfg.max_steps) + " | games " +
                         std::to_string(games) + " | " + number(positions_per_s, 0) + " pos/s, " +
                         number(sims_per_s, 0) + " sims/s, batch " + number(inference.mean_batch(), 0);
      if (trained) line += " | loss policy " + number(policy, 3) + " value " + number(value, 3);
      if (last_eval)
        line += " | elo " + number(last_eval->elo, 0) + " [" + number(last_eval->low, 0) + ", " +
                number(last_eval->high, 0) + "]";
      else if (replay.positions() < cfg.replay_min_positions)
        line += " | filling replay " + std::to_string(replay.positions()) + "/" + std::to_string(cfg.replay_min_positions);
      line += " | " + duration(elapsed()) + " elapsed, ETA " + duration(eta);
      log(line);
    }
  }

  // ---- the end: a checkpoint and an evaluation of the final network
  if (last_checkpoint != step) checkpoint();
  if (!last_eval && !stop) last_eval = evaluate();  // when no cycle evaluated (e.g. a resumed finished run)
  log(std::string(stop ? "stopped" : "finished") + " at step " + std::to_string(step) + " after " +
      duration(elapsed()) + ": " + std::to_string(games) + " games, " + std::to_string(positions) + " positions");
  TrainSummary summary;
  summary.run_dir = dir;
  summary.latest_checkpoint = latest_path;
  summary.steps = step;
  summary.games = games;
  summary.positions = positions;
  summary.seconds = elapsed();
  summary.final_evaluation = last_table;
  return summary;
}

}  // namespace boardlab
