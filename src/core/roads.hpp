// Roads (Pinter 2001, "The Road Problem", Figure 16; issue 11 item 7): the "cones" that keep a
// vehicle with a turning radius on the road through a turn (a seeded road network for tests and
// samples is in core/generators.hpp). The road is the palette's terrain named "road"
// (core/terrain.hpp).
//
// Cones, as the article's method 4: a vehicle needs about `turn_cells` tiles to complete a
// turn; that many tiles after every turn of the path, blocking tiles are placed temporarily
// beside the road (on both sides, where the road ends), for two tiles. Any curve that is
// still cutting across the road there, diagonally, runs into them, so the planner has to
// finish the turn inside the road and drive along it (Figure 16b) instead of the shortest
// curve across the corner (16a).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "core/grid.hpp"

namespace pl {

// The palette's road terrain, if it has one.
std::optional<TerrainId> road_terrain(const Palette& palette);

// Cells to block temporarily along the 8-connected cell path `path`: for every change of
// direction at path[i], the cells beside the road at path[i + turn_cells] and the one after
// (stopping at the next turn). `road(x, y)` says whether a cell is road; a cone is the first
// cell that is not road, walking sideways from the path cell (at most 16 cells), and is only
// returned when `free(x, y)` (it is not blocked already) and it is not on the path.
std::vector<CellXY> place_cones(std::span<const CellXY> path, int turn_cells,
                                const std::function<bool(int, int)>& road,
                                const std::function<bool(int, int)>& free);

}  // namespace pl
