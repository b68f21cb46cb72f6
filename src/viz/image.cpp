#include "viz/image.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pl {

namespace {

void check_size(std::size_t have, int width, int height, const char* what) {
  if (width < 0 || height < 0 || have != std::size_t(width) * std::size_t(height))
    throw std::invalid_argument(std::string(what) + ": grid size does not match width x height");
}

}  // namespace

Image::Image(int w, int h, Rgba fill) : width(w), height(h) {
  pixels.resize(std::size_t(w) * std::size_t(h) * 4);
  for (std::size_t i = 0; i < pixels.size(); i += 4) {
    pixels[i] = fill.r;
    pixels[i + 1] = fill.g;
    pixels[i + 2] = fill.b;
    pixels[i + 3] = fill.a;
  }
}

std::optional<CellXY> node_cell(const NodeState& node, int width, int height) {
  if (node.status == NodeStatus::Unseen || node.desc.level != 0) return std::nullopt;
  // From the position to the cell, then compare ids: no division, which on searches of
  // hundreds of thousands of nodes was most of an overlay's cost.
  const float x = node.desc.x, y = node.desc.y;
  if (!(x > 0 && y > 0 && x < float(width) && y < float(height))) return std::nullopt;  // NaN too
  const int cx = int(x), cy = int(y);
  if (x == float(cx) || y == float(cy)) return std::nullopt;  // on a border: not strictly inside
  if (node.desc.id != std::uint32_t(cy) * std::uint32_t(width) + std::uint32_t(cx))
    return std::nullopt;
  return CellXY{cx, cy};
}

Image terrain_image(const GridMap& map) {
  Image img(map.width(), map.height());
  // One lookup per terrain instead of per cell; ids beyond the palette show as magenta, the
  // customary "missing" colour, rather than reading past the palette.
  std::array<Rgba, 256> lut;
  lut.fill({255, 0, 255, 255});
  for (int t = 0; t < map.palette().size(); ++t)
    lut[std::size_t(t)] = Rgba::from(map.palette()[TerrainId(t)].colour);
  const auto& cells = map.cells();
  for (std::size_t i = 0; i < cells.size(); ++i) {
    img.set_index(i, lut[cells[i]]);
  }
  return img;
}

Image clearance_image(const ClearanceGrid& grid, int width, int height, const HeatOptions& options,
                      HeatRange* range) {
  check_size(grid.size(), width, height, "clearance_image");
  const ColourMap& cm = options.colours ? *options.colours : ColourMap::ordered();
  std::uint16_t top = 0;
  if (options.max_value > 0)
    top = std::uint16_t(std::min(options.max_value, 65535.0));
  else
    for (std::uint16_t v : grid) top = std::max(top, v);
  // Clearance takes few distinct values: colour each once.
  std::vector<Rgba> lut(std::size_t(top) + 1, options.empty);
  for (std::size_t v = 1; v <= top; ++v)
    lut[v] = cm.at(top > 1 ? double(v - 1) / double(top - 1) : 1.0).with_alpha(options.alpha);
  if (range) *range = {1.0, double(std::max<std::uint16_t>(top, 1))};
  Image img(width, height, options.empty);
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (!grid[i]) continue;
    img.set_index(i, lut[std::min<std::size_t>(grid[i], top)]);
  }
  return img;
}

Image g_image(const FrameState& state, int width, int height, const HeatOptions& options,
              HeatRange* range) {
  const ColourMap& cm = options.colours ? *options.colours : ColourMap::ordered();
  Image img(width, height, options.empty);
  double top = options.max_value;
  if (!(top > 0)) {
    top = 0;
    for (const NodeState& n : state.nodes())
      if (std::isfinite(n.g) && node_cell(n, width, height)) top = std::max(top, n.g);
  }
  if (range) *range = {0.0, top};
  for (const NodeState& n : state.nodes()) {
    if (!std::isfinite(n.g)) continue;
    const auto c = node_cell(n, width, height);
    if (!c) continue;
    img.set(c->x, c->y, cm.at(top > 0 ? n.g / top : 0.0).with_alpha(options.alpha));
  }
  return img;
}

}  // namespace pl
