// Node spaces: what a planner's node ids mean (DESIGN.md section 3). A planner declares each
// space it reports nodes from through SearchObserver::space() before it names the first id of
// it (at the start of a search or of a phase); viewers map ids to cells, corners, headings or
// points only through the declared spaces. No code may assume that an id is a cell index.
//
// A space covers the ids [base, base + count()). Spaces of one trace must not overlap; a
// declaration whose range equals an earlier one replaces it (a planner may re-declare its spaces
// at every query or phase).
//
//   Cells         w x h grid cells: id = base + y * w + x. The node stands on cell (x, y).
//   Corners       the (w+1) x (h+1) corners of a w x h map: id = base + y * (w + 1) + x, the node
//                 stands on the integer point (x, y) (any-angle planners).
//   CellHeadings  w x h cells x k headings: id = base + (y * w + x) * k + i; heading i is
//                 i * 2 pi / k radians (0 = east, clockwise on screen).
//   Layer         `size` nodes of an abstract layer (level >= 1); positions travel with each
//                 node (NodeDesc::x, y).
//   Points        `size` free points (size 0 = unbounded: every id from base on); positions
//                 travel with each node (circle tangent points, continuous poses).
//
// How the viewer shows each (viz/trace.hpp resolves a node's space once, viz/overlays.hpp
// draws): Cells fill their cell; CellHeadings are wedges inside their cell pointing along the
// heading, over a faint fill of the cell; Corners are dots on grid intersections; Layer and
// Points nodes are dots at their reported positions. A node in no declared space is a free point
// too. NodeDesc::label, when given, names a node; label() below is the default.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>
#include <string>

#include "core/geometry.hpp"
#include "core/grid.hpp"

namespace pl {

struct NodeSpace {
  enum class Kind : std::uint8_t { Cells, Corners, CellHeadings, Layer, Points };
  Kind kind = Kind::Points;
  std::uint32_t base = 0;
  std::int32_t width = 0, height = 0;  // Cells, Corners, CellHeadings: the map's size in cells
  std::int32_t headings = 0;           // CellHeadings: k
  std::uint32_t size = 0;              // Layer, Points: number of ids (Points: 0 = unbounded)
  std::int16_t level = 0;              // Layer: its level; the grid spaces are level 0
  std::string name;                    // for legends and labels: "cells", "abstract graph"

  static NodeSpace cells(int w, int h, std::uint32_t base = 0) {
    return NodeSpace{Kind::Cells, base, w, h, 0, 0, 0, "cells"};
  }
  static NodeSpace corners(int w, int h, std::uint32_t base = 0) {
    return NodeSpace{Kind::Corners, base, w, h, 0, 0, 0, "corners"};
  }
  static NodeSpace cell_headings(int w, int h, int k, std::uint32_t base = 0) {
    return NodeSpace{Kind::CellHeadings, base, w, h, k, 0, 0, "cells x headings"};
  }
  static NodeSpace layer(std::uint32_t size, int level, std::uint32_t base, std::string name) {
    return NodeSpace{Kind::Layer, base, 0, 0, 0, size, std::int16_t(level), std::move(name)};
  }
  static NodeSpace points(std::uint32_t size, std::uint32_t base = 0, std::string name = "points") {
    return NodeSpace{Kind::Points, base, 0, 0, 0, size, 0, std::move(name)};
  }

  // Number of ids; 0 for an unbounded Points space.
  std::uint64_t count() const {
    switch (kind) {
      case Kind::Cells: return std::uint64_t(width) * std::uint64_t(height);
      case Kind::Corners: return std::uint64_t(width + 1) * std::uint64_t(height + 1);
      case Kind::CellHeadings:
        return std::uint64_t(width) * std::uint64_t(height) * std::uint64_t(headings);
      case Kind::Layer:
      case Kind::Points: return size;
    }
    return 0;
  }
  bool contains(std::uint32_t id) const {
    if (id < base) return false;
    const std::uint64_t n = count();
    return (kind == Kind::Points && n == 0) || std::uint64_t(id - base) < n;
  }
  // Ids are grid positions (cells, corners, cells x headings), not free positions.
  bool on_grid() const {
    return kind == Kind::Cells || kind == Kind::Corners || kind == Kind::CellHeadings;
  }

  // --- Ids from positions (the planner side).
  std::uint32_t cell_id(int x, int y) const { return base + std::uint32_t(y * width + x); }
  std::uint32_t corner_id(int x, int y) const { return base + std::uint32_t(y * (width + 1) + x); }
  std::uint32_t heading_id(int x, int y, int i) const {
    return base + std::uint32_t((y * width + x) * headings + i);
  }

  // --- Positions from ids (the viewer side). Only for ids this space contains.
  // Cells and CellHeadings: the cell the node stands on (nullopt for other kinds).
  std::optional<CellXY> cell(std::uint32_t id) const {
    if (kind == Kind::Cells) {
      const std::uint32_t i = id - base;
      return CellXY{int(i % std::uint32_t(width)), int(i / std::uint32_t(width))};
    }
    if (kind == Kind::CellHeadings) {
      const std::uint32_t i = (id - base) / std::uint32_t(headings);
      return CellXY{int(i % std::uint32_t(width)), int(i / std::uint32_t(width))};
    }
    return std::nullopt;
  }
  // The dense index of the node's cell (y * width + x) for per-cell textures; -1 if the space
  // has no cells.
  std::int64_t cell_index(std::uint32_t id) const {
    if (kind == Kind::Cells) return std::int64_t(id - base);
    if (kind == Kind::CellHeadings) return std::int64_t((id - base) / std::uint32_t(headings));
    return -1;
  }
  // Corners: the integer point.
  std::optional<CellXY> corner(std::uint32_t id) const {
    if (kind != Kind::Corners) return std::nullopt;
    const std::uint32_t i = id - base, w1 = std::uint32_t(width + 1);
    return CellXY{int(i % w1), int(i / w1)};
  }
  // CellHeadings: the heading index i in [0, k), or -1.
  int heading_index(std::uint32_t id) const {
    return kind == Kind::CellHeadings ? int((id - base) % std::uint32_t(headings)) : -1;
  }
  // CellHeadings: heading i in radians.
  double heading_of_index(int i) const { return i * 2.0 * std::numbers::pi / headings; }
  // The heading of a node in radians, NaN when the space has none.
  double heading(std::uint32_t id) const {
    const int i = heading_index(id);
    return i < 0 ? std::numeric_limits<double>::quiet_NaN() : heading_of_index(i);
  }
  // Where the node is drawn, in map units: cell centres, corner points; nullopt for spaces whose
  // positions travel with the nodes.
  std::optional<Vec2> position(std::uint32_t id) const {
    if (auto c = cell(id)) return Vec2{c->x + 0.5, c->y + 0.5};
    if (auto c = corner(id)) return Vec2{double(c->x), double(c->y)};
    return std::nullopt;
  }
  // "cell (3,4)", "corner (3,4)", "(3,4) heading 2/8 (90 deg)", "abstract graph node 12",
  // "point 7": the default label of a node.
  std::string label(std::uint32_t id) const;

  bool operator==(const NodeSpace&) const = default;
};

// A short name for a heading (radians, 0 = east, clockwise on screen, so pi/2 is south): the
// compass point for multiples of 45 degrees ("E", "SE", "S", ...), else degrees ("22.5 deg").
// NaN gives "".
std::string heading_name(double heading);

}  // namespace pl
