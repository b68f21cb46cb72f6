// Where to put an agent on a map that came without one (a bare MovingAI .map or a PNG): start
// and goal on open cells of the largest connected region for a capability, far apart, so the
// first search a user sees is a real one, not "start (0,0) is not traversable".
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/grid.hpp"

namespace pl {

struct FarApart {
  CellXY start, goal;
  long region_cells = 0;  // cells in the region both lie in
  long steps = 0;         // 4-connected steps from start to goal
};

// The largest region of cells passable for `cap`, 4-connected (the 8-connected moves without
// corner cutting that the grid planners make connect the same cells). Start and goal: two
// breadth-first sweeps, the first from the region's first cell in row-major order to the cell
// farthest from it (start), the second from there to the cell farthest from start (goal): a
// far-apart pair, often the farthest. Ties go to the first cell in row-major order, so the
// answer is deterministic. nullopt when no cell is passable. Memory: a bit per cell plus the
// breadth-first frontier.
std::optional<FarApart> place_far_apart(const GridMap& map, CapabilityMask cap);

// The cells (y * w + x, ascending) of that same largest region: the one place_far_apart places
// in, ties to the region whose first cell comes first in row-major order. Empty when no cell is
// passable.
std::vector<std::uint32_t> largest_region_cells(const GridMap& map, CapabilityMask cap);

}  // namespace pl
