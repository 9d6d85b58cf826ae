// The network's shape as the config gives it: residual blocks, channels, head sizes.
#pragma once

namespace boardlab {

struct NetworkConfig {
  int blocks = 2;         // residual blocks in the trunk
  int channels = 32;      // convolution channels in the trunk
  int policy_channels = 2;  // 1×1 convolution planes feeding the policy head's linear layer
  int value_hidden = 64;  // width of the value head's hidden layer
  // Auxiliary heads, trained only (inference never computes them): the final owner of
  // each cell (a game with Game::has_ownership) and the final score margin (a game with
  // Game::max_score_margin).
  bool ownership_head = false;
  bool score_head = false;
};

}  // namespace boardlab
