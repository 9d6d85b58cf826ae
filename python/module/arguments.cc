// The checks of players, actions and seeds given from Python.
#include "arguments.h"

#include <random>

#include "core/errors.h"

namespace boardlab::python {
namespace {

std::string seats(const Game& game) { return "0.." + std::to_string(game.num_players() - 1); }

}  // namespace

Player seat_arg(const Game& game, const IntArg& p, const char* what) {
  if (!p.in(0, game.num_players() - 1))
    throw InputError(std::string(what) + ": player " + p.text() + " is not a seat " + seats(game) + " of " +
                     game.name());
  return static_cast<Player>(p.value);
}

Player actor_arg(const Game& game, const IntArg& p, const char* what) {
  if (p.exact && p.value == kChancePlayer) return kChancePlayer;
  if (!p.in(0, game.num_players() - 1))
    throw InputError(std::string(what) + ": player " + p.text() + " is not a seat " + seats(game) + " of " +
                     game.name() + ", nor CHANCE_PLAYER (" + std::to_string(kChancePlayer) + ")");
  return static_cast<Player>(p.value);
}

Player viewer_arg(const Game& game, const IntArg& p, const char* what) {
  if (p.exact && p.value == kPublicViewer) return kPublicViewer;
  if (!p.in(0, game.num_players() - 1))
    throw InputError(std::string(what) + ": viewer " + p.text() + " is not a seat " + seats(game) + " of " +
                     game.name() + ", nor PUBLIC_VIEWER (" + std::to_string(kPublicViewer) + ")");
  return static_cast<Player>(p.value);
}

Action action_arg(const Game& game, const IntArg& a, const char* what, bool illegal) {
  const int n = game.num_distinct_actions();
  if (!a.in(0, n - 1)) {
    const std::string message =
        std::string(what) + ": action " + a.text() + " is outside 0.." + std::to_string(n - 1);
    if (illegal) throw IllegalActionError(message);
    throw InputError(message);
  }
  return static_cast<Action>(a.value);
}

std::int64_t int_arg(const IntArg& v, const char* what, std::int64_t low, std::int64_t high) {
  if (!v.in(low, high))
    throw InputError(std::string(what) + " must be " + std::to_string(low) + ".." + std::to_string(high) + ", got " +
                     v.text());
  return v.value;
}

std::uint64_t seed_arg(const SeedArg& seed, const char* what) {
  if (!seed.exact) throw InputError(std::string(what) + " must be 0..2**64-1, got " + seed.digits);
  return seed.value;
}

std::uint64_t seed_or_entropy(const std::optional<SeedArg>& seed, const char* what) {
  if (seed) return seed_arg(*seed, what);
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

}  // namespace boardlab::python
