// Per-cell images for GPU textures: one RGBA8 pixel per map cell, row-major, row 0 = map row 0
// (the top), so texel (x, y) is cell (x, y) and a renderer draws the map as one textured quad
// over [0, width] x [0, height] map units with nearest filtering.
//
// terrain_image: the palette's colours. clearance_image: a heat map of a ClearanceGrid.
// g_image: a heat map of the g values a search has found so far, for the nodes that stand on a
// cell through their declared node space (Cells; CellHeadings show their best heading: the
// smallest g of the cell). Heat maps leave cells with nothing to show in the `empty` colour
// (transparent by default) so they can be laid over the terrain.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/clearance.hpp"
#include "core/grid.hpp"
#include "viz/draw.hpp"
#include "viz/style.hpp"
#include "viz/trace.hpp"

namespace pl {

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // 4 bytes a pixel: r, g, b, a

  Image() = default;
  Image(int w, int h, Rgba fill = {0, 0, 0, 0});
  Rgba at(int x, int y) const { return at_index(std::size_t(y) * std::size_t(width) + std::size_t(x)); }
  Rgba at_index(std::size_t i) const {
    const std::uint8_t* p = &pixels[i * 4];
    return {p[0], p[1], p[2], p[3]};
  }
  void set(int x, int y, Rgba c) { set_index(std::size_t(y) * std::size_t(width) + std::size_t(x), c); }
  // Pixel i in row-major order (i = y * width + x): the cell index of the map.
  void set_index(std::size_t i, Rgba c) {
    std::uint8_t* p = &pixels[i * 4];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
    p[3] = c.a;
  }
  const std::uint8_t* data() const { return pixels.data(); }
};

// The values the two ends of a heat map's colour ramp stand for (for a colour-bar legend).
struct HeatRange {
  double lo = 0, hi = 0;
};

struct HeatOptions {
  const ColourMap* colours = nullptr;  // nullptr = ColourMap::ordered()
  // The value shown at the top of the ramp; larger values saturate. 0 = the largest present.
  // Fix it to keep colours stable while the user edits or steps through a search.
  double max_value = 0;
  Rgba empty = {0, 0, 0, 0};  // cells with nothing to show: clearance 0, no g yet
  std::uint8_t alpha = 255;   // of every coloured cell
};

Image terrain_image(const GridMap& map);

// grid: width * height values. Clearance 1 is the bottom of the ramp, max_value the top;
// clearance 0 (not passable for the capability) is `empty`.
Image clearance_image(const ClearanceGrid& grid, int width, int height,
                      const HeatOptions& options = {}, HeatRange* range = nullptr);

// Open and closed nodes of `state` that stand on a cell (through their node spaces) as one texel
// per cell, in the colours draw_search_state gives them with cell_fills on: a Cells node in its
// status colour, a cell of CellHeadings nodes in the faint heading tint (closed when any of its
// headings is; the wedges are drawn over it). Other nodes are left to draw_search_state, which
// draws them as dots. any_open / any_closed tell whether such cells were painted (the legend).
Image search_image(const FrameState& state, int width, int height, const Style& style, bool open,
                   bool closed, bool* any_open = nullptr, bool* any_closed = nullptr);

// g = 0 is the bottom of the ramp. Nodes that stand on no cell of a width x height map
// (corners, abstract layers, free points, spaces over another map) are ignored.
Image g_image(const FrameState& state, int width, int height, const HeatOptions& options = {},
              HeatRange* range = nullptr);

}  // namespace pl
