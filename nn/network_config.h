// The network's shape as the config gives it: residual blocks, channels, head sizes.
#pragma once

#include "core/config_schema.h"

namespace boardlab {

struct NetworkConfig {
  int blocks = 2;         // residual blocks in the trunk
  int channels = 32;      // convolution channels in the trunk
  int policy_channels = 2;  // 1×1 convolution planes feeding the policy head's linear layer
  int value_hidden = 64;  // width of the value head's hidden layer

  template <class V>
  void visit(V& v) {
    v("blocks", blocks, "residual blocks in the trunk", Range::between(0, 40));
    v("channels", channels, "convolution channels in the trunk", Range::between(1, 512));
    v("policy_channels", policy_channels, "1x1 planes feeding the policy head", Range::between(1, 64));
    v("value_hidden", value_hidden, "hidden units of the value head", Range::between(1, 1024));
  }
};

}  // namespace boardlab
