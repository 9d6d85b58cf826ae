// The network's shape as the config gives it: residual blocks, channels, head sizes.
#pragma once

#include "config/config_schema.h"

namespace boardlab {

struct NetworkConfig {
  int blocks = 2;         // residual blocks in the trunk
  int channels = 32;      // convolution channels in the trunk
  int policy_channels = 2;  // 1×1 convolution planes feeding the policy head's last layer
  int value_hidden = 64;  // width of the value head's hidden layer
  // Auxiliary heads, trained only (inference never computes them): the final owner of
  // each cell (a game with GameTraits::has_ownership) and the final score margin (a game with
  // GameTraits::max_score_margin).
  bool ownership_head = false;
  bool score_head = false;
  // The policy head: a linear layer from the policy planes to every action (false), or a
  // 1×1 convolution that scores each action at its cell (GameTraits::action_layout), with the
  // board-wide actions from pooled planes. The linear layer's weights grow with cells ×
  // actions (934,000 for Squares' 400 cells and 1,166 actions) and learn each cell apart;
  // the convolution has a few hundred, shared by every cell.
  bool spatial_policy = false;
  // The value head of a game whose players go out one by one (GameTraits::has_standings):
  // each seat's return minus what a draw now would give it (State::standing_returns),
  // added back before the search sees it. Without it a kill is worth what the network says
  // of the position after it, and where self-play draws that is nothing: the network
  // learns that any position is a draw and the search sees no gain in a kill (War's
  // self-play drew 99% of games after 5 minutes). With it the kill's rank is counted at
  // once and the network learns only what may change it (training's value losses and
  // calibration are of these differences). A checkpoint that predates the key learned whole
  // returns, and loads so.
  bool standings_baseline = true;

  bool operator==(const NetworkConfig&) const = default;

  template <class V>
  void visit(V& v) {
    v("blocks", blocks, "residual blocks in the trunk", Range::between(0, 40));
    v("channels", channels, "convolution channels in the trunk", Range::between(1, 512));
    v("policy_channels", policy_channels, "1x1 planes feeding the policy head", Range::between(1, 64));
    v("value_hidden", value_hidden, "hidden units of the value head", Range::between(1, 1024));
    v("ownership_head", ownership_head, "auxiliary head: each cell's final owner (games that declare ownership)");
    v("score_head", score_head, "auxiliary head: the final score margin (games that declare a score)");
    v("spatial_policy", spatial_policy,
      "policy head: score each action at its cell, weights shared (games that declare an action layout)");
    v("standings_baseline", standings_baseline,
      "value head: learn each seat's return minus what a draw now would give it, added back at play (games whose "
      "players go out one by one)");
  }
};

}  // namespace boardlab
