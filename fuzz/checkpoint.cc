// Fuzz target: checkpoint files as bytes (the zip archive layer and everything behind it), loaded by load_checkpoint.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/errors.h"
#include "fuzz/fuzz.h"
#include "nn/checkpoint.h"

using namespace boardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The loader reads a path: one file per process, rewritten for each input.
  const std::string& path = fuzz::scratch_file("boardlab_fuzz_checkpoint", ".pt");
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
  std::fclose(file);
  try {
    load_checkpoint(path);
  } catch (const InputError&) {
  }
  return 0;
}
