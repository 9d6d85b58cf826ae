// The evaluation cache's table.
#include "mcts/evaluation_cache.h"

#include <bit>

#include "core/errors.h"

namespace boardlab {

EvaluationCache::EvaluationCache(int capacity) {
  if (capacity < 0) throw InputError("evaluation cache: capacity must be 0 or more, got " + std::to_string(capacity));
  if (capacity > 0) capacity_ = std::bit_ceil(static_cast<std::size_t>(capacity));
}

std::size_t EvaluationCache::index(std::uint64_t position, Player seat) const {
  // Zobrist hashes are uniform in every bit; the seat is mixed in so that a simultaneous
  // round's seats, which share the position, take different slots.
  const std::uint64_t key = position ^ (static_cast<std::uint64_t>(seat) * 0x9e3779b97f4a7c15ULL);
  return static_cast<std::size_t>(key ^ (key >> 29)) & (capacity_ - 1);
}

bool EvaluationCache::find(std::uint64_t position, Player seat, std::int64_t version, Evaluation& out) const {
  if (slots_.empty()) return false;
  const Slot& slot = slots_[index(position, seat)];
  if (!slot.filled || slot.position != position || slot.seat != seat || slot.version != version) return false;
  out = slot.eval;  // vectors' copy assignment keeps out's capacity
  return true;
}

void EvaluationCache::store(std::uint64_t position, Player seat, std::int64_t version, const Evaluation& eval) {
  if (capacity_ == 0) return;
  if (slots_.empty()) slots_.resize(capacity_);
  Slot& slot = slots_[index(position, seat)];
  slot.filled = true;
  slot.position = position;
  slot.seat = seat;
  slot.version = version;
  slot.eval = eval;
}

}  // namespace boardlab
