// The grid labels and point names that every grid game's diagram shares.
#include "core/diagram.h"

namespace boardlab {

void label_grid(Diagram& diagram, const std::vector<std::string>& files, int ranks, double offset) {
  for (std::size_t f = 0; f < files.size(); ++f) diagram.labels.push_back({static_cast<double>(f) + offset, -0.5, files[f]});
  for (int r = 0; r < ranks; ++r) diagram.labels.push_back({-0.5, r + offset, std::to_string(r + 1)});
}

void name_grid(Diagram& diagram, const std::vector<std::string>& files, int ranks, double offset) {
  for (int r = 0; r < ranks; ++r) {
    for (std::size_t f = 0; f < files.size(); ++f) {
      diagram.points.push_back({files[f] + std::to_string(r + 1), static_cast<double>(f) + offset, r + offset});
    }
  }
}

}  // namespace boardlab
