// The parts of the ranks above 0 in an MPI job, once they have the run's config (nn/distributed.h).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>

#include "nn/distributed.h"

namespace boardlab {

// An actor rank (nn/actor_rank.cc): plays with the networks rank 0 broadcasts on `actors`
// until it says stop, and sends it each game.
TrainSummary play_for_rank_zero(const RankInfo& me, const TrainConfig& cfg, std::uint64_t session_seed, MPI_Comm actors,
                                const std::function<void(const std::string&)>& log);

// A learner rank above 0 (nn/learner_rank.cc): takes rank 0's starting state, then its
// games and steps, averaging gradients on `learners`, until rank 0 says stop.
TrainSummary learn_beside_rank_zero(const RankInfo& me, const TrainConfig& cfg, std::uint64_t session_seed,
                                    MPI_Comm learners, const std::function<void(const std::string&)>& log);

// The commands of rank 0 to the other learner ranks (mpi::kLearnerTag), each a first byte
// and its payload.
enum LearnerCommand : char {
  kLearnerStart = 'I',  // step, network weights, optimizer state, replay (nn/learner_rank.cc)
  kLearnerGame = 'G',   // a game message the replay took (nn/game_message.h)
  kLearnerStep = 'S',   // the schedule's time fraction: take a step now
  kLearnerStop = 'E',   // reply with the network's hash (mpi::kReplyTag) and end
};

// The hash the learners compare when they stop: of every weight and running statistic.
std::int64_t network_hash(const Model& model);

}  // namespace boardlab
