// The memory estimate: counts from the network's layers and the run's sizes, and MemAvailable.
#include "nn/memory_estimate.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "mcts/evaluator.h"
#include "mcts/tree.h"
#include "nn/train_config.h"

namespace boardlab {
namespace {

constexpr double kFloat = 4;
// Children a search expands per node and policy entries a replay position keeps: legal
// actions, which the action space bounds but rarely reaches.
constexpr int kTypicalBranching = 32;

// "13.4 GB", or "57 MB" below a gigabyte.
std::string size_text(double bytes) {
  char text[32];
  if (bytes >= 1e9) std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  else std::snprintf(text, sizeof text, "%.0f MB", bytes / 1e6);
  return text;
}

}  // namespace

std::int64_t network_parameters(const NetworkConfig& config, const Game& game) {
  const ObservationShape input = game.observation_shape();
  const std::int64_t num_actions = game.num_distinct_actions(), num_players = game.num_players();
  // Layer by layer as ResNetImpl builds them (a test holds the two together); batch norms
  // count their weight and bias (their running statistics are buffers, as small).
  const std::int64_t c = config.channels, pc = config.policy_channels, vh = config.value_hidden;
  const std::int64_t cells = static_cast<std::int64_t>(input.height) * input.width;
  std::int64_t n = input.channels * c * 9 + 2 * c;  // input convolution and its batch norm
  n += config.blocks * (2 * c * c * 9 + 2 * 2 * c);
  n += c * pc + 2 * pc;  // policy planes and their batch norm
  if (config.spatial_policy) {
    const ActionLayout layout = game.traits().action_layout;
    n += (pc + 1) * layout.planes;  // the planes' convolution
    if (layout.board_wide() > 0) n += (2 * pc + 1) * layout.board_wide();
  } else {
    n += (pc * cells + 1) * num_actions;  // the linear layer
  }
  n += c * c + 2 * c + (2 * c + 1) * vh + (vh + 1) * num_players;  // value head
  if (config.ownership_head) n += c + 1;
  if (config.score_head) n += vh + 1;
  return n;
}

std::string MemoryEstimate::describe() const {
  return "about " + size_text(total()) + " (network " + size_text(network) + ", optimizer " + size_text(optimizer) +
         ", activations of a training batch " + size_text(activations) + ", replay buffer " + size_text(replay) +
         ", self-play searches " + size_text(self_play) + ")";
}

MemoryEstimate estimate_network_memory(const NetworkConfig& config, const Game& game) {
  MemoryEstimate e;
  e.parameters = network_parameters(config, game);
  e.network = kFloat * static_cast<double>(e.parameters);
  return e;
}

MemoryEstimate estimate_training_memory(const TrainConfig& config, const Game& game) {
  MemoryEstimate e = estimate_network_memory(config.network, game);
  const double weights = e.network;
  // The trained network, the snapshot self-play runs, the one being published, and the
  // evaluation's (with the previous one's, when it plays too).
  e.network = weights * (4 + (config.evaluation.previous_checkpoint ? 1 : 0));
  // Gradients, and Adam's two moments or SGD's momentum.
  e.optimizer = weights * (1 + (config.training.optimizer == "adam" ? 2 : 1));

  const ObservationShape shape = game.observation_shape();
  const double cells = static_cast<double>(shape.height) * shape.width;
  const double actions = game.num_distinct_actions();
  const double trunk = cells * config.network.channels;  // one trunk activation of one position
  // Saved for the backward pass per position: the input layer's convolution, batch norm
  // and ReLU, seven tensors a block (two of each, the sum and its ReLU), the value head's
  // three; the backward pass holds about two more at a time. The heads' and the batch's
  // own tensors (inputs, policy targets, mask, logits) are small beside them.
  const double per_position =
      kFloat * (trunk * (3 + 7.0 * config.network.blocks + 3 + 2) + cells * shape.channels * 2 + actions * 6 +
                cells * config.network.policy_channels * 3);
  e.activations = per_position * config.training.batch_size;

  // A position in the replay: its step, its target, root value and offset, and a policy
  // entry (action and weight) per legal action.
  const double branching = std::min<double>(actions, kTypicalBranching);
  e.replay = static_cast<double>(config.replay.window) * (16 + 4 * branching);

  // Every game a worker plays at once holds a search tree of a node per simulation, each
  // with its children, and a request (observation, logits) per leaf in flight; each
  // inference thread runs a batch through the network (a few trunk activations a position),
  // or without them each worker runs its own.
  const double games = static_cast<double>(config.self_play.workers) * config.self_play.concurrent_games;
  const double tree = (config.search.simulations + 1.0) * branching * sizeof(Node);
  const double leaves = config.search.leaves_per_step;
  const double request = kFloat * leaves * (cells * shape.channels + actions);
  const double batches = config.inference.threads > 0 ? config.inference.threads : config.self_play.workers;
  // Each worker's evaluation cache, once full: a prior per legal action and a value per seat.
  // A fixed opponent's bots (self_play.opponent, one per game) share as many again a worker.
  const double caches = config.self_play.opponent.empty() ? 1 : 2;
  const double cache = caches * config.self_play.workers * config.search.cache_positions *
                       (sizeof(Evaluation) + 32 + kFloat * (branching + game.num_players()));
  e.self_play = games * (tree + request) + cache +
                batches * config.inference.max_batch * kFloat * (3 * trunk + cells * shape.channels + actions);
  return e;
}

std::optional<double> available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    if (!line.starts_with("MemAvailable:")) continue;
    std::istringstream fields(line.substr(13));
    double kilobytes = 0;
    if (fields >> kilobytes) return kilobytes * 1024;
  }
  return std::nullopt;
}

void check_memory(const MemoryEstimate& estimate, const std::string& what, std::optional<double> available) {
  if (!available || estimate.total() <= *available) return;
  throw InputError(what + " needs " + estimate.describe() + " of memory, and this machine has " +
                   size_text(*available) + " available (MemAvailable in /proc/meminfo): a smaller network, " +
                   "training batch, replay window or number of concurrent games would fit");
}

}  // namespace boardlab
