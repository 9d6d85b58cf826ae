// Data-parallel learners under `mpirun -np 2`: two ranks, each stepping on its own batch with gradients averaged, end with the weights of one learner stepping on both batches.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "nn/mpi_world.h"
#include "nn/model.h"
#include "nn/replay_buffer.h"
#include "nn/trainer.h"
#include "tests/nn/nn_test_util.h"

namespace boardlab {
namespace {

using nn_testing::largest_weight_difference;
using nn_testing::random_selfplay_game;
using nn_testing::tiny_network;
using nn_testing::virus_war;

constexpr int kSteps = 4;

// Batches [step][rank], the same on every rank (one seed), drawn from random games.
std::vector<std::vector<TrainBatch>> batches(int ranks) {
  ReplayBuffer replay(virus_war(), 100000);
  Rng rng(11);
  while (replay.positions() < 600) replay.add(random_selfplay_game(virus_war(), rng));
  std::vector<std::vector<TrainBatch>> out(kSteps, std::vector<TrainBatch>(static_cast<std::size_t>(ranks)));
  for (auto& step : out)
    for (TrainBatch& b : step) replay.sample(32, rng, /*augment=*/true, b);
  return out;
}

TEST(Learners, TwoRanksEndWithTheWeightsOfOneLearnerOnTheSameBatches) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  ASSERT_EQ(ranks, 2) << "run under mpirun -np 2";
  const auto data = batches(ranks);
  OptimizerConfig optimizer;  // Adam with weight decay and the cosine schedule: the defaults

  Model shared(tiny_network(1, 8), virus_war(), 5);
  Trainer trainer(shared, optimizer);
  trainer.set_gradient_average([](std::vector<float>& values) { mpi::average(MPI_COMM_WORLD, values); });
  Model alone(tiny_network(1, 8), virus_war(), 5);
  Trainer reference(alone, optimizer);
  Model first_batch_only(tiny_network(1, 8), virus_war(), 5);
  Trainer one_batch(first_batch_only, optimizer);
  for (const auto& step : data) {
    trainer.step(step[static_cast<std::size_t>(rank)]);
    reference.step(std::vector<const TrainBatch*>{&step[0], &step[1]});
    one_batch.step(step[0]);
  }
  // Every rank holds the very same bytes...
  std::string weights = shared.weights(), other(weights.size(), '\0');
  MPI_Sendrecv(weights.data(), static_cast<int>(weights.size()), MPI_BYTE, 1 - rank, 0, other.data(),
               static_cast<int>(other.size()), MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  EXPECT_EQ(weights, other) << "the learners' networks differ";
  // ...which are the single learner's on both batches, to float rounding,
  EXPECT_LT(largest_weight_difference(weights, alone.weights()), 1e-4);
  // and not what either batch alone gives: the test sees whether the average happened.
  EXPECT_GT(largest_weight_difference(weights, first_batch_only.weights()), 1e-2);
}

}  // namespace
}  // namespace boardlab

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // One rank's report is enough; both run every check.
  if (rank != 0) delete ::testing::UnitTest::GetInstance()->listeners().Release(
      ::testing::UnitTest::GetInstance()->listeners().default_result_printer());
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
