// Resolving network.device against the LibTorch this build links.
#include "nn/device.h"

#include <torch/cuda.h>

#include <string>

#include "core/errors.h"
#include "core/text.h"

namespace boardlab {

bool cuda_available() { return torch::cuda::is_available(); }

ComputeDevice resolve_device(std::string_view setting) {
  if (setting == "cpu") return ComputeDevice::kCpu;
  if (setting == "auto") return cuda_available() ? ComputeDevice::kCuda : ComputeDevice::kCpu;
  if (setting == "cuda") {
    if (!cuda_available())
      throw InputError("network.device: cuda, but this LibTorch was built without CUDA (or no GPU is visible); "
                       "use cpu or auto");
    return ComputeDevice::kCuda;
  }
  throw InputError("network.device: " + quote_input(setting) + " is not one of auto, cpu, cuda");
}

const char* device_name(ComputeDevice device) { return device == ComputeDevice::kCuda ? "cuda" : "cpu"; }

}  // namespace boardlab
