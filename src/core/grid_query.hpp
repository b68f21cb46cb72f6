// What every grid planner does with a query's endpoints before it searches: find the cells the
// poses stand in, and say in words why one of them is unusable. One copy for every planner.
#pragma once

#include <optional>
#include <string>

#include "core/geometry.hpp"
#include "core/grid.hpp"

namespace pl {

// The cell containing the point (x, y), or nullopt outside the map or for non-finite values.
std::optional<CellXY> cell_of(const GridMap& map, const Pose& p);

// "(3,4)"
std::string cell_text(int x, int y);

// "start (3,4) is not traversable: terrain 'water' is outside the capability" (or "clearance is
// below the agent size 2" when size_limited, or "blocked"). `which` is "start" or "goal".
std::string blocked_reason(const GridMap& map, CapabilityMask capability, int size,
                           bool size_limited, const char* which, CellXY cell);

// "start is outside the map" / "goal is outside the map" for the first endpoint of the query that
// lies outside, or an empty string when both are inside.
std::string outside_reason(const GridMap& map, const Pose& start, const Pose& goal);

}  // namespace pl
