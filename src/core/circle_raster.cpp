#include "core/circle_raster.hpp"

#include <algorithm>
#include <cmath>

namespace pl {

const char* circle_raster_rule_name(CircleRasterRule r) {
  return r == CircleRasterRule::Centre ? "centre" : "touch";
}

std::vector<CellXY> circle_cells(int width, int height, const Circle& c,
                                 const CircleRasterOptions& options) {
  std::vector<CellXY> out;
  const double r = c.r + std::max(0.0, options.inflate);
  if (!(r > 0) || width <= 0 || height <= 0) return out;
  // Rows whose span meets the disc, clamped as doubles first: a circle far outside the map may
  // hold coordinates no int can.
  const auto clamp_row = [&](double v) { return int(std::clamp(v, 0.0, double(height))); };
  const int y0 = clamp_row(std::floor(c.y - r)), y1 = clamp_row(std::ceil(c.y + r));
  const double r2 = r * r;
  for (int y = y0; y < y1; ++y) {
    // The disc's x-extent on the row, over the row's sample line (its centre line for Centre, the
    // nearest point of the row's span to the circle's centre for Touch).
    const double yc = options.rule == CircleRasterRule::Centre
                          ? y + 0.5
                          : std::clamp(c.y, double(y), double(y + 1));
    const double dy = yc - c.y;
    const double rest = r2 - dy * dy;
    if (rest <= 0) continue;  // the row's line only touches the circle, or misses it
    const double half = std::sqrt(rest);
    int x0 = 0, x1 = 0;  // cells [x0, x1)
    if (options.rule == CircleRasterRule::Centre) {
      // Centres x + 0.5 strictly inside (c.x - half, c.x + half).
      x0 = int(std::clamp(std::floor(c.x - half - 0.5) + 1, 0.0, double(width)));
      x1 = int(std::clamp(std::ceil(c.x + half - 0.5), 0.0, double(width)));
    } else {
      // Cells [x, x+1] whose span meets the open interval (c.x - half, c.x + half).
      x0 = int(std::clamp(std::floor(c.x - half), 0.0, double(width)));
      x1 = int(std::clamp(std::ceil(c.x + half), 0.0, double(width)));
    }
    for (int x = x0; x < x1; ++x) out.push_back({x, y});
  }
  return out;
}

std::vector<std::uint8_t> circle_cell_mask(int width, int height, std::span<const Circle> circles,
                                           const CircleRasterOptions& options) {
  std::vector<std::uint8_t> mask(size_t(std::max(width, 0)) * size_t(std::max(height, 0)), 0);
  for (const Circle& c : circles)
    for (const CellXY& cell : circle_cells(width, height, c, options))
      mask[size_t(cell.y) * size_t(width) + size_t(cell.x)] = 1;
  return mask;
}

GridMap grid_with_circles(const GridMap& map, std::span<const Circle> circles,
                          const CircleRasterOptions& options) {
  return grid_with_circles(map, circles, options, map.palette().default_obstacle());
}

GridMap grid_with_circles(const GridMap& map, std::span<const Circle> circles,
                          const CircleRasterOptions& options, TerrainId obstacle) {
  GridMap out = map;
  const std::vector<std::uint8_t> mask =
      circle_cell_mask(map.width(), map.height(), circles, options);
  std::vector<TerrainId> cells = map.cells();
  for (size_t i = 0; i < cells.size(); ++i)
    if (mask[i]) cells[i] = obstacle;
  out.assign(std::move(cells));
  return out;
}

const GridMap& CircleRasterCache::get(const GridMap& map, std::span<const Circle> circles,
                                      const CircleRasterOptions& options) {
  const bool same = valid_ && uid_ == map.uid() && version_ == map.version() &&
                    options_.rule == options.rule && options_.inflate == options.inflate &&
                    std::equal(circles_.begin(), circles_.end(), circles.begin(), circles.end());
  if (!same) {
    grid_ = grid_with_circles(map, circles, options);
    uid_ = map.uid();
    version_ = map.version();
    circles_.assign(circles.begin(), circles.end());
    options_ = options;
    valid_ = true;
    ++rebuilds_;
  }
  return grid_;
}

}  // namespace pl
