// Reachability through killed cells, as Virus War and Klopodavka define it: one flood fill for both.
//
// A player's conductors are its live cells and the cells it killed (in Virus War the
// opponent's dead symbols, in Klopodavka the cells that player killed, whoever owned them):
// a chain of killed cells conducts when one of its cells touches a live cell of the player,
// and the player reaches the 8-neighbourhood of its live cells and of those chains. Cells
// killed by anyone else are walls to it.
#pragma once

#include "games/sub_move_grid/grid_bits.h"

namespace boardlab {

// The cells of `killed` 8-connected to `live` through each other: the chains `live` conducts along.
template <typename B>
B conducting_chains(const B& live, const B& killed, const Grid<B>& g) {
  B chains = dilate(live, g) & killed;
  if (!any(chains)) return chains;  // no chain touches: one dilation saved, the common case early on
  while (true) {
    const B grown = dilate(chains, g) & killed;
    if (grown == chains) return chains;
    chains = grown;
  }
}

// Every cell next to `live` or to a chain of `killed` that `live` conducts along.
template <typename B>
B reachable_cells(const B& live, const B& killed, const Grid<B>& g) {
  return dilate(live | conducting_chains(live, killed, g), g);
}

}  // namespace boardlab
