// Sets glibc's allocator thresholds for the process (nn/memory_reuse.h says why).
#include "nn/memory_reuse.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace boardlab {

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
