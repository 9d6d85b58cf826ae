// Sets glibc's allocator thresholds for the process (nn/memory_reuse.h says why).
#include "nn/memory_reuse.h"

#include <cstddef>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace boardlab {
#if defined(__GLIBC__)
namespace {

// Blocks up to kMmapThreshold come from the heap (glibc's largest allowed on 64-bit), and
// the heap keeps up to kTrimThreshold of free memory at its top.
constexpr std::size_t kMmapThreshold = std::size_t{32} << 20;
constexpr std::size_t kTrimThreshold = std::size_t{256} << 20;

}  // namespace
#endif

bool keep_freed_memory() {
#if defined(__GLIBC__)
  // Setting either threshold turns off glibc's adaptive ones, which a learner's large frees
  // would otherwise raise only in some processes (not in `evaluate`, `play` or an MPI actor
  // rank). Cheap (one lock), and Models are made rarely: no once-only guard, so that a
  // threshold something else in the process lowered is set again.
  const bool mmap = mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThreshold)) == 1;
  return mallopt(M_TRIM_THRESHOLD, static_cast<int>(kTrimThreshold)) == 1 && mmap;
#else
  return false;
#endif
}

}  // namespace boardlab
