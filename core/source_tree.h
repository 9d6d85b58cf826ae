// Where the source tree's games/ folder is: each game's folder holds what other layers read of it (ladders, drawings).
#pragma once

#include <string>

namespace boardlab {

// The games/ folder of the source tree this build was configured from (an absolute path).
std::string games_source_dir();

}  // namespace boardlab
