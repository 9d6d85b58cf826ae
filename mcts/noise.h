// Random draws the search needs: Dirichlet noise for PUCT roots, Gumbel noise for Gumbel roots.
#pragma once

#include <span>

#include "core/rng.h"

namespace boardlab {

// Fills `out` with a Dirichlet(alpha, ..., alpha) sample.
void sample_dirichlet(Rng& rng, float alpha, std::span<float> out);
// One Gumbel(0, 1) draw.
float sample_gumbel(Rng& rng);

}  // namespace boardlab
