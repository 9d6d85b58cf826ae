// The run as rank 0 sends it to the actor ranks: this session's seed and the config as used.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <utility>

#include "core/errors.h"

namespace boardlab {

// "<seed>\n<config yaml>": the actors parse the very config the learner resolved (its
// file, --set overrides or a resumed run's config.yaml), wherever they run.
inline std::string run_config_message(std::uint64_t session_seed, const std::string& yaml) {
  return std::to_string(session_seed) + "\n" + yaml;
}

inline std::pair<std::uint64_t, std::string> parse_run_config_message(const std::string& message) {
  const auto newline = message.find('\n');
  std::uint64_t seed = 0;
  const auto [end, error] = std::from_chars(message.data(), message.data() + std::min(newline, message.size()), seed);
  if (newline == std::string::npos || error != std::errc() || end != message.data() + newline)
    throw InputError("the learner's run config message does not begin with a seed line");
  return {seed, message.substr(newline + 1)};
}

}  // namespace boardlab
