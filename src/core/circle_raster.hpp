// Mixed worlds: circular obstacles rasterised into the grid, so that every grid planner respects
// them (issue 5). A cell is blocked either when a circle covers its centre or when a circle
// touches any part of it; circles may be grown by an agent's radius first. The circles planner
// itself never uses this: it plans around the exact circles.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/grid.hpp"
#include "core/scene.hpp"

namespace pl {

enum class CircleRasterRule : std::uint8_t {
  Centre,  // blocked when the circle's interior holds the cell's centre (x + 0.5, y + 0.5)
  Touch,   // blocked when the circle's interior shares any point with the cell [x, x+1] x [y, y+1]
};
const char* circle_raster_rule_name(CircleRasterRule r);  // "centre", "touch"

struct CircleRasterOptions {
  CircleRasterRule rule = CircleRasterRule::Centre;
  double inflate = 0;  // added to every radius (an agent's radius); negative values count as 0
};

// Cells are CellXY (core/grid.hpp).

// The cells of a width x height map one circle blocks, row by row (y, then x ascending). Cells
// outside the map are left out, so a circle leaving the map blocks only what lies inside.
// Boundaries are open: a circle that only touches a centre or a cell edge blocks nothing there.
std::vector<CellXY> circle_cells(int width, int height, const Circle& c,
                                 const CircleRasterOptions& options = {});

// One byte per cell (index y * width + x), 1 where any circle blocks the cell.
std::vector<std::uint8_t> circle_cell_mask(int width, int height, std::span<const Circle> circles,
                                           const CircleRasterOptions& options = {});

// A copy of `map` with every cell a circle blocks set to `obstacle` (a hard obstacle terrain;
// the palette's default obstacle when omitted).
GridMap grid_with_circles(const GridMap& map, std::span<const Circle> circles,
                          const CircleRasterOptions& options = {});
GridMap grid_with_circles(const GridMap& map, std::span<const Circle> circles,
                          const CircleRasterOptions& options, TerrainId obstacle);

// How a scene becomes the grid a grid planner searches when its circles count as obstacles.
inline GridMap scene_grid_with_circles(const Scene& scene,
                                       const CircleRasterOptions& options = {}) {
  return grid_with_circles(scene.map, scene.circles, options);
}

// The last rasterised grid, rebuilt only when the map (its uid and version), the circles or the
// options change: a grid planner asked to respect circles calls get() every query and pays the
// copy once per edit. The returned map keeps its identity (uid) between calls that hit, so
// caches keyed on it (clearance) stay valid. Not thread-safe: one per planner.
class CircleRasterCache {
 public:
  const GridMap& get(const GridMap& map, std::span<const Circle> circles,
                     const CircleRasterOptions& options);
  std::size_t rebuilds() const { return rebuilds_; }

 private:
  bool valid_ = false;
  std::uint64_t uid_ = 0, version_ = 0;
  std::vector<Circle> circles_;
  CircleRasterOptions options_;
  GridMap grid_;
  std::size_t rebuilds_ = 0;
};

}  // namespace pl
