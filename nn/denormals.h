// Denormal floats flushed to zero while a network computes: on x86 each one costs a slow microcode path.
#pragma once

#if defined(__x86_64__) || defined(__SSE__)
#include <xmmintrin.h>
#define BOARDLAB_MXCSR 1
#endif

namespace boardlab {

// While alive, the calling thread reads denormal floats as zero (DAZ) and writes zero for results
// that would be denormal (FTZ); its previous mode comes back on exit, so code around a network
// call, the user's own included, keeps IEEE arithmetic.
//
// Why: Adam with L2 decay drives the weights of actions that never occur (most of a large
// policy layer's rows) geometrically to zero, and once they are denormal every matrix product
// over them runs several times slower (measured in experiments/results/notes/stratego_classic.md).
// Flushed, they are zeros.
class FlushDenormals {
 public:
#ifdef BOARDLAB_MXCSR
  static constexpr bool kSupported = true;
  static constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
  FlushDenormals() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero); }
  ~FlushDenormals() { _mm_setcsr(saved_); }
#else
  static constexpr bool kSupported = false;  // other CPUs: IEEE arithmetic, as before
#endif
  FlushDenormals(const FlushDenormals&) = delete;
  FlushDenormals& operator=(const FlushDenormals&) = delete;

 private:
#ifdef BOARDLAB_MXCSR
  unsigned saved_;
#endif
};

}  // namespace boardlab
