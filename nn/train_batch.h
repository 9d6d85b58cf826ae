// A batch of training examples as plain floats: inputs, policy targets, legal masks and value targets.
#pragma once

#include <vector>

namespace boardlab {

struct TrainBatch {
  int size = 0;
  std::vector<float> obs;     // size × C×H×W, the mover's view
  std::vector<float> policy;  // size × A, the search's policy in the mover's view (sums to 1)
  std::vector<float> mask;    // size × A, 1 for legal actions
  std::vector<float> value;   // size × P, returns relative to the mover (seat j after the mover)
};

}  // namespace boardlab
