// Walkable(A, B) for an agent's footprint (Pinter 2001, Listing 1's test, made exact): the
// footprint -- an axis-aligned square of side `size` or a disc of radius `radius`, centred on
// the agent's position -- swept along the segment A-B, against the blocked cells of a grid.
// Exact geometry, not sampling: the swept shape (a hexagon, or a capsule) is intersected with
// each cell row, and every cell the row's interval overlaps is checked. Overlap means a shared
// area: grazing a blocked cell's edge or corner is allowed. Cells outside the map are blocked.
// Map units, cell (x, y) spans [x, x+1] x [y, y+1] (DESIGN.md section 4).
#pragma once

#include <functional>

#include "core/geometry.hpp"
#include "core/grid.hpp"

namespace pl {

struct Footprint {
  enum class Shape { Square, Disc } shape = Shape::Square;
  double size = 1.0;  // Square: side length; Disc: radius (map units, > 0)
  static Footprint square(double side) { return {Shape::Square, side}; }
  static Footprint disc(double radius) { return {Shape::Disc, radius}; }
};

// True when the footprint swept from a to b overlaps no cell for which blocked(x, y) is true,
// nor anything outside [0, width] x [0, height]. A non-finite input or a size <= 0 is false.
bool walkable(int width, int height, const std::function<bool(int, int)>& blocked, Vec2 a, Vec2 b,
              const Footprint& f);
// The same on a map: a cell is blocked when the capability cannot enter it.
bool walkable(const GridMap& map, CapabilityMask capability, Vec2 a, Vec2 b, const Footprint& f);

}  // namespace pl
