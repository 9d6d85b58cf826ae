// Where a network computes (network.device), behind a torch-free header: the setting resolved on this machine.
#pragma once

#include <string_view>

namespace boardlab {

enum class ComputeDevice { kCpu, kCuda };

// Whether this process's LibTorch was built with CUDA and sees a GPU.
bool cuda_available();

// The network.device setting on this machine: "auto" is cuda where cuda_available(), else
// cpu. "cuda" where CUDA is not available throws InputError naming the key and why (a
// config that asks for a GPU should stop at once, not train for hours on the CPU).
ComputeDevice resolve_device(std::string_view setting);

const char* device_name(ComputeDevice device);  // "cpu" or "cuda", as the config spells them

}  // namespace boardlab
