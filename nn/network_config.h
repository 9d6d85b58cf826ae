// The network's shape as the config gives it: residual blocks, channels, head sizes.
#pragma once

namespace boardlab {

struct NetworkConfig {
  int blocks = 2;         // residual blocks in the trunk
  int channels = 32;      // convolution channels in the trunk
  int policy_channels = 2;  // 1×1 convolution planes feeding the policy head's linear layer
  int value_hidden = 64;  // width of the value head's hidden layer
};

}  // namespace boardlab
