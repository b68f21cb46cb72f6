// Whether a path can be driven by a square agent on a grid map: the footprint of a size-s agent
// whose reference point is p covers [p.x - 1/2, p.x - 1/2 + s] x [p.y - 1/2, p.y - 1/2 + s] (at a
// cell centre: the s x s cells whose upper-left is that cell, as in HAA*), and every cell the
// footprint overlaps with positive area while it sweeps along the path must be in the
// capability. An 8-connected diagonal step then needs both cells beside it (no corner
// cutting). Used to flag a path that beats the optimum for its agent only because its planner
// ignored the agent (plain A* for a size-3 agent): it is invalid for that agent, not better.
#pragma once

#include <string>
#include <vector>

#include "core/geometry.hpp"
#include "core/grid.hpp"

namespace pl {

// The first problem with driving `pieces` (lines and arcs, arcs followed by chords within a
// hundredth of a cell) with a size-`size` agent of capability `cap`, in words: "cell (5,6)
// 'hard' is outside the agent's capability (size 3, step 12 from (3.5,4.5) to (4.5,5.5))";
// empty when the path is fine. Cells outside the map count as blocked.
std::string path_problem(const GridMap& map, CapabilityMask cap, int size,
                         const std::vector<PathPiece>& pieces);
// The same for a polyline through `points`.
std::string path_problem(const GridMap& map, CapabilityMask cap, int size,
                         const std::vector<Vec2>& points);

}  // namespace pl
