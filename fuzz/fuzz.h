// Shared by the fuzz targets: reading an input as selector bytes and text, and the games every target covers.
//
// A target returns normally when the input is accepted or refused with an InputError (what
// bad input must raise); anything else escaping it (another exception, a crash, a sanitizer
// report, a hang) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"

namespace boardlab::fuzz {

// The input, consumed from the front: selector bytes, then the rest as text.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  // The next byte, or 0 once the input is used up.
  std::uint8_t byte() {
    if (size_ == 0) return 0;
    --size_;
    return *data_++;
  }
  std::string_view rest() const { return {reinterpret_cast<const char*>(data_), size_}; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

// Every registered game with its defaults and with each preset ("virus_war",
// "virus_war(strict=true)", ...), made once.
const std::vector<std::shared_ptr<const Game>>& fuzz_games();
// The game a selector byte picks.
const Game& pick_game(std::uint8_t selector);
// A state of `game` after up to `plies` random steps from `seed` (fewer where it ends).
std::unique_ptr<State> random_state(const Game& game, int plies, std::uint64_t seed);

// For targets whose code under test reads a path: this process's one scratch file,
// /tmp/STEM_PID.EXTENSION (the first call names it), removed when the process exits.
const std::string& scratch_file(const std::string& stem, const std::string& extension);

}  // namespace boardlab::fuzz
