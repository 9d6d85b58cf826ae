// Fuzz target: --set overrides (one per line) on a training config, as `boardlab train --set` applies them.
#include <string>
#include <vector>

#include "core/errors.h"
#include "nn/train_config.h"

using namespace boardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> overrides;
  while (!text.empty()) {
    const auto end = text.find('\n');
    overrides.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  try {
    parse_train_config("", "fuzz.yaml", overrides);
  } catch (const InputError&) {
  }
  return 0;
}
