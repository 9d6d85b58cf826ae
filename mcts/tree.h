// The search tree: nodes in one contiguous arena, each node's children side by side.
//
// Values are stored per edge for the player who chose it (the parent's mover): selection
// at a node only ever compares its mover's values, so one float serves 2-6 players and
// sub-moves (a mover repeating) with no special case; the backup adds value[parent mover].
//
// Room for the later node kinds, without changing this layout:
// - simultaneous nodes (squares): `mover == kSimultaneousPlayer`, and the children range
//   holds each player's actions one block after another (decoupled statistics, one
//   block per player); a joint action is one child per block, backed up per block;
// - hidden information (Stratego): the tree is built over information sets, each
//   simulation playing a state drawn with State::sample_hidden, so nodes stay the same.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.h"

namespace boardlab {

enum class NodeStatus : std::uint8_t {
  kFresh,     // never evaluated
  kPending,   // its evaluation is in flight
  kExpanded,  // children created
  kTerminal,  // the game is over here
};

// `solved` values other than a winning player.
inline constexpr std::int8_t kUnsolved = -1;
inline constexpr std::int8_t kSolvedDraw = -2;

struct Node {
  float prior = 0;
  float value_sum = 0;  // sum of backed-up values for the parent's mover
  float net_value = 0;  // the evaluator's value for `mover`, set at expansion
  std::int32_t visits = 0;
  std::int32_t in_flight = 0;  // pending leaves below: virtual loss
  std::int32_t first_child = -1;
  std::int32_t num_children = 0;
  Action action = kInvalidAction;  // the action that led here
  std::int8_t mover = -1;          // the player to move here, once expanded
  std::int8_t solved = kUnsolved;  // a proven outcome: the winner, or kSolvedDraw
  NodeStatus status = NodeStatus::kFresh;

  float mean_value() const { return visits > 0 ? value_sum / static_cast<float>(visits) : 0.0f; }
};

class Tree {
 public:
  static constexpr std::int32_t kRoot = 0;

  void clear() {
    nodes_.clear();
    nodes_.emplace_back();
  }
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

  // The child of `parent` reached by `action`, or -1.
  std::int32_t find_child(std::int32_t parent, Action action) const;

  // Makes `new_root`'s subtree the whole tree (tree reuse), compacting the arena.
  void reroot(std::int32_t new_root);

 private:
  std::vector<Node> nodes_{1};
};

}  // namespace boardlab
