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

Image search_image(const FrameState& state, int width, int height, const Style& style, bool open,
                   bool closed, bool* any_open, bool* any_closed) {
  Image img(width, height);
  bool saw_open = false, saw_closed = false;
  const CellIndexer cell(state.trace(), width, height);
  if (cell.any() && (open || closed)) {
    const Rgba open_c = style.colour(Role::Open), closed_c = style.colour(Role::Closed);
    const Rgba open_tint = heading_cell_tint(open_c), closed_tint = heading_cell_tint(closed_c);
    for (const NodeState& n : state.nodes()) {
      const bool is_open = n.status == NodeStatus::Open, is_closed = n.status == NodeStatus::Closed;
      if (!(is_open && open) && !(is_closed && closed)) continue;
      const std::int64_t c = cell(n.desc);
      if (c < 0) continue;
      const auto i = std::size_t(c);
      if (!cell.shared(n.desc)) {
        img.set_index(i, is_open ? open_c : closed_c);
      } else if (is_closed) {
        img.set_index(i, closed_tint);
      } else if (!(img.at_index(i) == closed_tint)) {
        img.set_index(i, open_tint);  // a closed heading of the same cell wins
      }
      (is_open ? saw_open : saw_closed) = true;
    }
  }
  if (any_open) *any_open = saw_open;
  if (any_closed) *any_closed = saw_closed;
  return img;
}

Image g_image(const FrameState& state, int width, int height, const HeatOptions& options,
              HeatRange* range) {
  const ColourMap& cm = options.colours ? *options.colours : ColourMap::ordered();
  Image img(width, height, options.empty);
  const CellIndexer cell(state.trace(), width, height);
  if (!cell.any()) {
    if (range) *range = {0.0, std::max(options.max_value, 0.0)};
    return img;
  }
  // The smallest g a cell's nodes have (its best heading, for cells x headings).
  std::vector<double> g(std::size_t(width) * std::size_t(height), INFINITY);
  for (const NodeState& n : state.nodes()) {
    if (!std::isfinite(n.g)) continue;
    const std::int64_t c = cell(n.desc);
    if (c >= 0) g[std::size_t(c)] = std::min(g[std::size_t(c)], n.g);
  }
  double top = options.max_value;
  if (!(top > 0)) {
    top = 0;
    for (const double v : g)
      if (std::isfinite(v)) top = std::max(top, v);
  }
  if (range) *range = {0.0, top};
  for (std::size_t i = 0; i < g.size(); ++i)
    if (std::isfinite(g[i])) img.set_index(i, cm.at(top > 0 ? g[i] / top : 0.0).with_alpha(options.alpha));
  return img;
}

}  // namespace pl
