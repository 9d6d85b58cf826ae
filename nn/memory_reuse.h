// Keeps the memory LibTorch frees inside the process, so that a network call does not fault its pages back in.
#pragma once

namespace boardlab {

// glibc's defaults give freed memory above 128 KiB back to the kernel, and a network call
// allocates and frees activations of that size every time: each call then page-faults
// them back in. Two threads predicting with the default 2x32 Virus War network made 5,000
// evaluations/s that way and 29,700 with freed memory kept (`boardlab bench --nn`, session
// 12; a learner's training in the same process had hidden it by raising glibc's adaptive
// thresholds). It sets the thresholds for the whole process; every Model's constructor
// calls it. True when glibc took both (false on another allocator).
bool keep_freed_memory();

}  // namespace boardlab
