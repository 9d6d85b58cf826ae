// What kind of game a game is: the declaration that search, solver, arena, replay and bindings read instead of guessing.
#pragma once

#include <cstdint>
#include <string>

namespace boardlab {

enum class Dynamics : std::uint8_t {
  kSequential,    // one actor per node (a player, whose turns may hold several sub-moves, or chance)
  kSimultaneous,  // some nodes are kSimultaneousPlayer: every seat chooses at once (apply_joint)
};

enum class Chance : std::uint8_t {
  kDeterministic,  // no chance node
  kSetup,          // chance nodes only before the first player acts: a dealt hand, a drawn setup
  kChanceNodes,    // chance nodes anywhere
};

enum class Information : std::uint8_t {
  kPerfect,    // every player sees the whole state
  kImperfect,  // observation(p), information_key(p) and sample_hidden(p) hide what p may not know
};

enum class Utility : std::uint8_t {
  kZeroSum,      // returns sum to 0
  kConstantSum,  // returns sum to return_sum
  kGeneralSum,   // no constraint
};

struct GameType {
  Dynamics dynamics = Dynamics::kSequential;
  Chance chance = Chance::kDeterministic;
  Information information = Information::kPerfect;
  Utility utility = Utility::kZeroSum;
  double min_return = -1;  // every return of every player lies in [min_return, max_return]
  double max_return = 1;
  double return_sum = 0;  // the sum of the returns, for zero- and constant-sum games

  bool simultaneous() const { return dynamics == Dynamics::kSimultaneous; }
  bool has_chance() const { return chance != Chance::kDeterministic; }
  bool perfect_information() const { return information == Information::kPerfect; }
  bool constant_sum() const { return utility != Utility::kGeneralSum; }
  bool operator==(const GameType&) const = default;

  // "sequential, deterministic, perfect information, zero-sum, returns in [-1, 1]".
  std::string describe() const;
};

}  // namespace boardlab
