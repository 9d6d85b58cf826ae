// A fixed-size table of recent evaluations, keyed by position and seat: what the batched driver reuses instead of asking again.
#pragma once

#include <cstdint>
#include <vector>

#include "mcts/evaluator.h"

namespace boardlab {

// KataGo's NN cache. The same position reaches the evaluator many times in self-play:
// commuting sub-moves of one turn (Virus War's three cells in any order), the subtrees a
// reused tree discarded and the next search walks again, and the openings every game
// shares. A network's answer depends only on the position and the seat (State::hash()
// decides the observation and the legal actions; the conformance suite checks it), so
// it is kept and handed back while the network is the same version.
//
// Direct-mapped: each key has one slot, a newer entry evicts an older one, and a lookup
// costs one probe. Entries keep their vectors' capacity, so a warm cache allocates
// nothing. Not thread-safe: each driver owns its own.
class EvaluationCache {
 public:
  // `capacity` is rounded up to a power of two; 0 keeps nothing.
  explicit EvaluationCache(int capacity);

  // Copies the entry for (position, seat) under `version` into `out`; false when there is none.
  bool find(std::uint64_t position, Player seat, std::int64_t version, Evaluation& out) const;
  void store(std::uint64_t position, Player seat, std::int64_t version, const Evaluation& eval);

  int capacity() const { return static_cast<int>(capacity_); }

 private:
  struct Slot {
    bool filled = false;
    std::uint64_t position = 0;
    Player seat = 0;
    std::int64_t version = 0;
    Evaluation eval;
  };
  std::size_t index(std::uint64_t position, Player seat) const;
  std::size_t capacity_ = 0;
  std::vector<Slot> slots_;  // allocated by the first store: a driver over random playouts never needs it
};

}  // namespace boardlab
