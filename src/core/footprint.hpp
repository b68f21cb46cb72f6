// Walkable(A, B) for an agent's footprint (Pinter 2001, Listing 1's test, made exact): the
// footprint -- an axis-aligned square of side `size` or a disc of radius `radius`, centred on
// the agent's position -- swept along the segment A-B, against the blocked cells of a grid.
// Exact geometry, not sampling: the swept shape (a hexagon, or a capsule) is intersected with
// each cell row, and every cell the row's interval overlaps is checked. Overlap means a shared
// area: grazing a blocked cell's edge or corner is allowed. Cells outside the map are blocked.
// Map units, cell (x, y) spans [x, x+1] x [y, y+1] (DESIGN.md section 4).
#pragma once

#include <functional>
#include <span>
#include <vector>

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

namespace pl {

// ---- Footprints swept along lines and arcs (the turning planners' hit-check tables) ----
//
// Distance-based, separate from walkable()'s row bands: the disc overlaps a cell when the
// piece comes closer than R (minus 1e-12) to the cell's box; the square when the piece enters
// the cell's box grown by half its side (an arc touching the grown box's edge counts: a
// conservative answer, never a missed overlap). Cells outside the map are not special here:
// the caller decides what they are.

// Whether the footprint swept along the piece overlaps cell (x, y).
bool piece_overlaps_cell(const PathPiece& piece, const Footprint& f, int x, int y);
// Every cell the footprint swept along the pieces overlaps, each once, in row-major order.
std::vector<CellXY> swept_cells(std::span<const PathPiece> pieces, const Footprint& f);

}  // namespace pl
