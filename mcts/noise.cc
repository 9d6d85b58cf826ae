// Gamma (Marsaglia–Tsang), Dirichlet and Gumbel sampling on the project's Rng.
#include "mcts/noise.h"

#include <cmath>

namespace boardlab {
namespace {

double sample_normal(Rng& rng) {
  // Box–Muller; 1 - uniform() is in (0, 1], so the log is finite.
  const double u = 1.0 - rng.uniform();
  const double v = rng.uniform();
  return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
}

double sample_gamma(Rng& rng, double alpha) {
  if (alpha < 1.0) {
    // Boost to alpha + 1 and scale back: Marsaglia–Tsang needs alpha >= 1.
    const double u = 1.0 - rng.uniform();
    return sample_gamma(rng, alpha + 1.0) * std::pow(u, 1.0 / alpha);
  }
  const double d = alpha - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  while (true) {
    double x, v;
    do {
      x = sample_normal(rng);
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = 1.0 - rng.uniform();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

}  // namespace

void sample_dirichlet(Rng& rng, float alpha, std::span<float> out) {
  double sum = 0;
  for (float& x : out) {
    x = static_cast<float>(sample_gamma(rng, alpha));
    sum += x;
  }
  if (sum <= 0) {
    for (float& x : out) x = 1.0f / static_cast<float>(out.size());
    return;
  }
  for (float& x : out) x = static_cast<float>(x / sum);
}

float sample_gumbel(Rng& rng) {
  const double u = 1.0 - rng.uniform();  // (0, 1]
  return static_cast<float>(-std::log(-std::log(u) + 1e-300));
}

}  // namespace boardlab
