// The checks of players, actions, seeds and text given from Python.
#include "arguments.h"

#include <cstdio>
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

TextArg text_of(pybind11::handle str) {
  Py_ssize_t size = 0;
  if (const char* utf8 = PyUnicode_AsUTF8AndSize(str.ptr(), &size))
    return {std::string(utf8, static_cast<std::size_t>(size)), {}};
  PyErr_Clear();
  // The first lone surrogate: U+DC80..U+DCFF stand for the bytes 0x80..0xFF Python could not
  // decode (its surrogateescape); any other is a surrogate written into the str itself.
  for (Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(str.ptr()); i < n; ++i) {
    const Py_UCS4 c = PyUnicode_READ_CHAR(str.ptr(), i);
    if (c < 0xD800 || c > 0xDFFF) continue;
    char hex[8];
    if (c >= 0xDC80 && c <= 0xDCFF) {
      std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned>(c - 0xDC00));
      return {{}, std::string("the undecodable byte \\x") + hex};
    }
    std::snprintf(hex, sizeof hex, "%04x", static_cast<unsigned>(c));
    return {{}, std::string("the lone surrogate \\u") + hex};
  }
  return {{}, "a character UTF-8 cannot hold"};  // not reached: only surrogates fail
}

const std::string& text_arg(const TextArg& v, const char* what) {
  if (!v.problem.empty()) throw InputError(std::string(what) + ": not UTF-8 text (it holds " + v.problem + ")");
  return v.text;
}

std::optional<std::string> text_arg(const std::optional<TextArg>& v, const char* what) {
  if (!v) return std::nullopt;
  return text_arg(*v, what);
}

std::vector<std::string> text_args(const std::vector<TextArg>& v, const char* what) {
  std::vector<std::string> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(text_arg(v[i], (std::string(what) + "[" + std::to_string(i) + "]").c_str()));
  return out;
}

std::uint64_t seed_or_entropy(const std::optional<SeedArg>& seed, const char* what) {
  if (seed) return seed_arg(*seed, what);
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

}  // namespace boardlab::python
