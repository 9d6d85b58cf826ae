// How much of a long random-play test this build runs: all of it, or an eighth under the sanitizers.
#pragma once

namespace boardlab {

// AddressSanitizer and UndefinedBehaviorSanitizer make a random game ten to twenty times
// slower. Their stage of CI looks for memory and undefined-behaviour faults, which an eighth
// of the games still meets on every code path (each test's rarest ending still comes up);
// the invariants over the full thousands of games are checked by the Release stage, which runs every count whole.
#ifdef BOARDLAB_SANITIZED
inline constexpr int kTestShareDivisor = 8;
#else
inline constexpr int kTestShareDivisor = 1;
#endif

// `n` games (or positions, or a threshold on what they must show), scaled for this build.
constexpr int test_share(int n) { return (n + kTestShareDivisor - 1) / kTestShareDivisor; }

}  // namespace boardlab
