// Fuzz target: YAML training configs, read and checked as `boardlab train --config` reads them.
#include "core/errors.h"
#include "nn/train_config.h"

using namespace boardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    parse_train_config(text, "fuzz.yaml");
  } catch (const InputError&) {
  }
  return 0;
}
