// A learner rank above 0: rank 0's replay mirrored, a batch of its own each step, gradients averaged with the other learners.
#include <unistd.h>

#include <cstring>
#include <string>

#include "core/errors.h"
#include "games/registry.h"
#include "nn/checkpoint.h"
#include "nn/content_hash.h"
#include "nn/device.h"
#include "nn/game_message.h"
#include "nn/learner.h"
#include "nn/mpi_world.h"
#include "nn/rank_roles.h"
#include "nn/replay_codec.h"

namespace boardlab {
namespace {

std::string next_command() {
  std::string command = mpi::wait_for(0, mpi::kLearnerTag);
  if (command.empty()) throw InputError("rank 0 sent an empty learner command");
  return command;
}

std::string take_part(ByteReader& r, const std::string& what) {
  const auto size = r.get<std::uint64_t>(what + "'s size");
  std::string out(static_cast<std::size_t>(size), '\0');
  r.take(out.data(), out.size(), what);
  return out;
}

}  // namespace

std::int64_t network_hash(const Model& model) {
  ContentHash hash;
  hash.add(model.weights());
  return hash.value();
}

TrainSummary learn_beside_rank_zero(const RankInfo& me, const TrainConfig& cfg, std::uint64_t session_seed,
                                    MPI_Comm learners, const std::function<void(const std::string&)>& log) {
  const std::shared_ptr<const Game> game = load_game(cfg.game);
  Model model(cfg.network, *game, cfg.seed);
  model.to_device(resolve_device(cfg.network.device));  // this rank's machine; before the trainer, whose optimizer follows
  Trainer trainer(model, cfg.training);
  ReplayBuffer replay(*game, cfg.replay.window);

  const std::string start = next_command();
  if (start[0] != kLearnerStart) throw InputError("rank 0's first learner command is not the start");
  {
    ByteReader r(std::string_view(start).substr(1), "rank 0's start message");
    const auto step = r.get<std::int64_t>("the step");
    model.set_weights(take_part(r, "the network"), "rank 0's network");
    set_optimizer_state(trainer, take_part(r, "the optimizer state"), "rank 0's optimizer state");
    replay.load_from(take_part(r, "the replay"), "rank 0's replay");
    if (!r.at_end()) r.fail("bytes after the replay");
    trainer.set_steps(step);
  }
  trainer.set_gradient_average([learners](std::vector<float>& values) { mpi::average(learners, values); });
  Learner learner(model, trainer, replay, cfg.learner_options(cfg.distributed.learners), Rng(rank_seed(session_seed, me.rank)));
  const std::int64_t first_step = trainer.steps();
  log(me.role() + " (pid " + std::to_string(getpid()) + ") trains beside rank 0 from step " + std::to_string(first_step) +
      " with a replay of " + std::to_string(replay.positions()) + " positions");

  while (true) {
    const std::string command = next_command();
    const std::string_view payload = std::string_view(command).substr(1);
    if (command[0] == kLearnerGame) {
      GameMessage m = decode_game_message(*game, payload, "rank 0's forward of a game");
      if (!m.game) throw InputError("rank 0 forwarded an actor's last message instead of a game");
      replay.add(*m.game);
    } else if (command[0] == kLearnerStep) {
      double time_fraction = 0;
      if (payload.size() != sizeof time_fraction) throw InputError("rank 0's step command is not one number");
      std::memcpy(&time_fraction, payload.data(), sizeof time_fraction);
      trainer.set_time_fraction(time_fraction);
      learner.step();
    } else if (command[0] == kLearnerStop) {
      break;
    } else {
      throw InputError("rank 0 sent an unknown learner command '" + std::string(1, command[0]) + "'");
    }
  }
  const std::int64_t hash = network_hash(model);
  std::string reply(sizeof hash, '\0');
  std::memcpy(reply.data(), &hash, sizeof hash);
  mpi::Outbox outbox;
  outbox.send(std::move(reply), 0, mpi::kReplyTag);
  outbox.flush();
  log(me.role() + " stopped at step " + std::to_string(trainer.steps()) + " after " +
      std::to_string(trainer.steps() - first_step) + " steps with " + std::to_string(replay.games_added()) +
      " games added; network hash " + std::to_string(hash));
  TrainSummary summary;
  summary.rank = me.rank;
  summary.steps = trainer.steps();
  return summary;
}

}  // namespace boardlab
