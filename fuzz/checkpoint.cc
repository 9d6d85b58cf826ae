// Fuzz target: checkpoint files as bytes (the zip archive layer and everything behind it), loaded by load_checkpoint.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/errors.h"
#include "nn/checkpoint.h"

using namespace boardlab;

// The loader reads a path: one temporary file per process, rewritten for each input.
const std::string& scratch_path() {
  static const std::string path = [] {
    std::string p = "/tmp/boardlab_fuzz_checkpoint_" + std::to_string(getpid()) + ".pt";
    std::atexit([] { std::remove(scratch_path().c_str()); });
    return p;
  }();
  return path;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::FILE* file = std::fopen(scratch_path().c_str(), "wb");
  if (file == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
  std::fclose(file);
  try {
    load_checkpoint(scratch_path());
  } catch (const InputError&) {
  }
  return 0;
}
