// The source tree's games/ folder, fixed when the build is configured.
#include "core/source_tree.h"

#ifndef BOARDLAB_GAMES_DIR
#error "BOARDLAB_GAMES_DIR must name the source tree's games/ folder"
#endif

namespace boardlab {

std::string games_source_dir() { return BOARDLAB_GAMES_DIR; }

}  // namespace boardlab
