// The search tree: nodes in one contiguous arena, each node's children side by side.
//
// A node holds the statistics of the edge that leads to it (prior, visits, value_sum) and,
// once expanded, what is known of its own position. Values are stored per edge for the
// player who chose it: selection at a node only ever compares its chooser's values, so one
// float serves 2-6 players and sub-moves (a mover repeating) with no special case.
//
// Node kinds, told apart by `mover` once the node is expanded:
// - decision node (mover = a seat): the children are the mover's legal actions, ascending;
//   a child's value_sum is the mover's. The evaluator's value for the mover is net_value.
// - chance node (kChancePlayer): the children are the outcomes, ascending, with their
//   probabilities as priors. It is expanded when first reached, without an evaluator
//   request, and selection follows the probabilities (mcts/selection.h). Nobody chooses
//   an outcome, so its children's value_sum stays 0; the value backed up through it is
//   the child's, recorded on the edge into the chance node for the player who chose it.
// - simultaneous node (kSimultaneousPlayer): decoupled statistics. Its children block holds
//   one statistic per (seat, legal action), seat after seat (a statistic's `mover` is its
//   seat), each with that seat's own value; statistics are never expanded. The position
//   after a joint action is a separate node made when that joint action is first visited
//   and found with joint_child(node, code), code being the mixed-radix index of the
//   seats' choices within their blocks (seat order, the first seat's digit lowest).
//   Backup adds value[seat] to each chosen statistic.
//   Under regret matching a statistic's net_value holds its regret (mcts/simultaneous.h).
//   Below the root it may first be kPartlyExpanded: one seat evaluated, the others' at its
//   second visit.
// - terminal node: status kTerminal, no children (never under information-set search, where
//   whether the game is over can depend on the deal: mcts/information_set.cc).
//
// Proven values (the solver, sequential perfect-information games only): a proven node
// points into a table of return vectors, one float per player (prove, proven_value).
//
// Information-set search (hidden information): a node is a sequence of actions from the
// root, shared by every sampled deal that allows it. A child's availability count (kept
// beside the nodes, as only this search needs it) counts the simulations that passed its
// parent while its action was legal in their sample; a sample with an action the node
// lacks extends the block (extend_children relocates it).
//
// Transpositions (perfect information): a fresh node whose position is already expanded
// elsewhere, as many steps from the root, shares that node's children block
// (share_children); its own edge statistics stay its own. Equal depth keeps the shared
// graph free of cycles even where a position can repeat. Reroot copies a shared block once.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/types.h"
#include "mcts/node_table.h"

namespace boardlab {

enum class NodeStatus : std::uint8_t {
  kFresh,     // never evaluated (and every statistic of a simultaneous node)
  kPending,   // its evaluation is in flight
  kExpanded,  // children created
  kTerminal,  // the game is over here
  // A simultaneous node whose seats are all in its children block but whose first seat
  // alone is evaluated (SearchConfig::lazy_seats): the others' priors (kPendingPrior until
  // then) come from the evaluation at its next visit, which makes it kExpanded.
  kPartlyExpanded,
};

// The prior of a statistic whose seat is not evaluated yet (kPartlyExpanded).
inline constexpr float kPendingPrior = -1.0f;

// Node::proven of a node without a proven value.
inline constexpr std::int32_t kUnproven = -1;

struct Node {
  float prior = 0;
  float value_sum = 0;  // sum of backed-up values for the player who chose this edge
  // The evaluator's value for `mover` (decision node), set at expansion; a simultaneous
  // node's statistic: its regret, under regret matching.
  float net_value = 0;
  std::int32_t visits = 0;
  std::int32_t first_child = -1;
  std::int32_t num_children = 0;
  Action action = kInvalidAction;  // the action that led here (a statistic: the seat's action)
  std::int32_t proven = kUnproven;  // index into the tree's table of proven return vectors
  std::int16_t in_flight = 0;       // pending leaves below: virtual loss (at most leaves_per_step)
  std::int8_t mover = -1;           // the player to move here once expanded, or a statistic's seat
  NodeStatus status = NodeStatus::kFresh;

  float mean_value() const { return visits > 0 ? value_sum / static_cast<float>(visits) : 0.0f; }
};
static_assert(sizeof(Node) == 36, "Node is the tree's unit of memory: keep it compact");

class Tree {
 public:
  static constexpr std::int32_t kRoot = 0;

  void clear();
  Node& operator[](std::int32_t i) { return nodes_[i]; }
  const Node& operator[](std::int32_t i) const { return nodes_[i]; }
  std::int32_t size() const { return static_cast<std::int32_t>(nodes_.size()); }

  // Appends `count` fresh children to `parent` and returns the first one's index.
  std::int32_t add_children(std::int32_t parent, std::int32_t count) {
    const auto first = size();
    nodes_.resize(nodes_.size() + count);
    nodes_[parent].first_child = first;
    nodes_[parent].num_children = count;
    return first;
  }

  // The child of `parent` reached by `action`, or -1 (decision and chance nodes).
  std::int32_t find_child(std::int32_t parent, Action action) const;

  // The node after joint action `code` at simultaneous node `node`, or -1.
  std::int32_t joint_child(std::int32_t node, std::uint64_t code) const {
    return joints_.find(static_cast<std::uint64_t>(node), code);
  }
  // Makes that node (fresh) and returns it.
  std::int32_t add_joint_child(std::int32_t node, std::uint64_t code);

  // Proven return vectors, one float per player: set_players first.
  void set_players(int players) { players_ = players; }
  int players() const { return players_; }
  bool is_proven(std::int32_t node) const { return nodes_[node].proven != kUnproven; }
  std::span<const float> proven_value(std::int32_t node) const {
    return {proven_.data() + static_cast<std::size_t>(nodes_[node].proven) * players_,
            static_cast<std::size_t>(players_)};
  }
  void prove(std::int32_t node, std::span<const float> value);

  // Transpositions: fresh `node` takes `canonical`'s children, mover, evaluation and
  // proven value; its own edge statistics stay.
  void share_children(std::int32_t node, std::int32_t canonical);

  // Information-set search: node i's availability count (0 until raised).
  std::int32_t available(std::int32_t i) const {
    return static_cast<std::size_t>(i) < available_.size() ? available_[i] : 0;
  }
  void add_available(std::int32_t i, std::int32_t delta) {
    if (available_.size() < nodes_.size()) available_.resize(nodes_.size(), 0);
    available_[i] += delta;
  }

  // Information-set search: gives `node` fresh children for `actions` (ascending, none
  // of them a child yet), keeping its block sorted. The block moves to the end of the
  // arena, so no index into the old block may be held (no pending leaf).
  void extend_children(std::int32_t node, std::span<const Action> actions);

  // Makes `new_root`'s subtree the whole tree (tree reuse), compacting the arena.
  void reroot(std::int32_t new_root);

 private:
  std::vector<Node> nodes_{1};
  NodeTable joints_;
  std::vector<float> proven_;
  int players_ = 0;
  std::vector<std::int32_t> available_;  // availability counts, by node (information sets only)
};

}  // namespace boardlab
