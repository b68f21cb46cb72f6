#include "viz/overlays.hpp"

#include <cstdio>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <set>
#include <unordered_map>

namespace pl {

namespace {

struct Box {
  double x0, y0, x1, y1;
};

Box bounds(const Shape& s) {
  switch (s.kind) {
    case Shape::Kind::Point:
      return {s.a.x, s.a.y, s.a.x, s.a.y};
    case Shape::Kind::Cell:
      return {s.a.x, s.a.y, s.a.x + 1, s.a.y + 1};
    case Shape::Kind::Segment:
      return {std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y), std::max(s.a.x, s.b.x),
              std::max(s.a.y, s.b.y)};
    case Shape::Kind::Arc:
    case Shape::Kind::Circle:
      return {s.a.x - s.radius, s.a.y - s.radius, s.a.x + s.radius, s.a.y + s.radius};
    case Shape::Kind::Pose:
      return {s.a.x - 1, s.a.y - 1, s.a.x + 1, s.a.y + 1};
    case Shape::Kind::Polyline: {
      if (s.points.empty()) return {0, 0, -1, -1};  // overlaps nothing
      Box b{s.points[0].x, s.points[0].y, s.points[0].x, s.points[0].y};
      for (const Vec2& p : s.points) {
        b.x0 = std::min(b.x0, p.x);
        b.y0 = std::min(b.y0, p.y);
        b.x1 = std::max(b.x1, p.x);
        b.y1 = std::max(b.y1, p.y);
      }
      return b;
    }
  }
  return {0, 0, 0, 0};
}

bool shows(const std::optional<MapRect>& visible, const Box& b) {
  return !visible || visible->overlaps(b.x0, b.y0, b.x1, b.y1);
}

// Cells sharing area with r, clipped to the map: x in [x0, x1), y in [y0, y1).
struct CellRange {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::size_t count() const {
    return x1 > x0 && y1 > y0 ? std::size_t(x1 - x0) * std::size_t(y1 - y0) : 0;
  }
};
CellRange cells_in(const MapRect& r, int width, int height) {
  // Clamp as doubles first: a far-zoomed-out view may hold coordinates no int can.
  auto lo = [](double v, int n) { return int(std::clamp(std::floor(v), 0.0, double(n))); };
  auto hi = [](double v, int n) { return int(std::clamp(std::ceil(v), 0.0, double(n))); };
  return {lo(r.x0, width), lo(r.y0, height), hi(r.x1, width), hi(r.y1, height)};
}

// The shape itself, or (halo) a wider outline of it behind it.
void shape_geometry(DrawSink& sink, const Shape& s, Rgba colour, float width_px, bool halo) {
  switch (s.kind) {
    case Shape::Kind::Point:
      sink.point(s.a, colour, 3 * width_px);
      break;
    case Shape::Kind::Cell:
      if (halo) {
        sink.rect_outline(s.a, s.a + Vec2{1, 1}, colour, width_px);
      } else {
        // Half as opaque as lines of the same role: a cell covers terrain the user still needs.
        sink.rect(s.a, s.a + Vec2{1, 1}, colour.with_alpha(std::uint8_t(colour.a / 2)));
        sink.rect_outline(s.a, s.a + Vec2{1, 1}, colour, std::max(1.f, width_px / 2));
      }
      break;
    case Shape::Kind::Segment:
      sink.line(s.a, s.b, colour, width_px);
      break;
    case Shape::Kind::Arc:
      sink.arc(s.a, s.radius, s.angle, s.sweep, colour, width_px);
      break;
    case Shape::Kind::Circle:
      sink.circle(s.a, s.radius, colour, width_px);
      break;
    case Shape::Kind::Pose:
      sink.arrow(s.a, s.a + Vec2{std::cos(s.angle), std::sin(s.angle)}, colour, width_px,
                 4 * width_px);
      break;
    case Shape::Kind::Polyline:
      sink.polyline(s.points, colour, width_px);
      break;
  }
}

// How a node is drawn, from its declared space and the map the view shows.
enum class NodeLook : std::uint8_t { Cell, Wedge, Dot };

// Per space index (kNoSpace included): Cells over this map draw as cells, CellHeadings over it
// as wedges inside their cell, everything else as a dot at its position.
std::array<NodeLook, 256> node_looks(const Trace& t, int width, int height) {
  std::array<NodeLook, 256> look;
  look.fill(NodeLook::Dot);
  const auto spaces = t.spaces();
  for (std::size_t i = 0; i < spaces.size() && i < kMaxSpaces; ++i) {
    const NodeSpace& s = spaces[i];
    if (s.width != width || s.height != height || width <= 0) continue;
    if (s.kind == NodeSpace::Kind::Cells) look[i] = NodeLook::Cell;
    if (s.kind == NodeSpace::Kind::CellHeadings) look[i] = NodeLook::Wedge;
  }
  return look;
}

void draw_nodes(DrawSink& sink, const FrameState& state, const Style& style,
                const SearchDrawOptions& o) {
  const Trace& t = state.trace();
  const std::array<NodeLook, 256> look = node_looks(t, o.grid_width, o.grid_height);
  auto level_ok = [&](const NodeState& n) { return !o.level || t.level_of(n.desc) == *o.level; };
  auto cell_visible = [&](CellXY c) { return !o.visible || o.visible->overlaps_cell(c.x, c.y); };
  // Where parent arrows start and end: a heading node's anchor sits out along its wedge, so
  // turning on the spot (a parent in the same cell) still shows.
  auto anchor = [&](const NodeState& n) {
    const Vec2 p = t.position_of(n.desc);
    if (look[n.desc.space] != NodeLook::Wedge) return p;
    const double a = t.heading_of(n.desc);
    return p + Vec2{std::cos(a), std::sin(a)} * 0.25;
  };
  // Emits node n in colour c (the current node: `current`); false when culled or not drawn.
  auto node = [&](const NodeState& n, Rgba c, bool current, float px) {
    switch (look[n.desc.space]) {
      case NodeLook::Cell: {
        const CellXY cell = *t.cell_of(n.desc);
        if (!cell_visible(cell) || (!o.cell_fills && !current)) return false;
        sink.cell(cell.x, cell.y, c, current ? 0.15 : 0);
        return true;
      }
      case NodeLook::Wedge: {
        const CellXY cell = *t.cell_of(n.desc);
        if (!cell_visible(cell)) return false;
        const NodeSpace& space = *t.space_of(n.desc);
        if (current && !o.heading_wedges) {
          sink.cell(cell.x, cell.y, c, 0.15);
          return true;
        }
        if (!o.heading_wedges) return false;
        draw_heading_wedge(sink, cell, t.heading_of(n.desc), space.headings,
                           current ? c : heading_wedge_colour(c), current ? 1.0 : 0.85);
        if (current)
          sink.rect_outline({cell.x + 0.06, cell.y + 0.06}, {cell.x + 0.94, cell.y + 0.94}, c,
                            1.5f);
        return true;
      }
      case NodeLook::Dot: {
        const Vec2 p = t.position_of(n.desc);
        if (o.visible && !o.visible->contains(p)) return false;
        sink.point(p, c, px);
        // Free nodes that differ only by heading would be one dot; a tick tells them apart.
        if (const double a = t.heading_of(n.desc); std::isfinite(a))
          sink.line(p, p + Vec2{std::cos(a), std::sin(a)} * 0.4, c, 1.5f);
        return true;
      }
    }
    return false;
  };

  // Whether the pass below has anything to draw: not when every node is a Cells node and a
  // texture shows them (the app's common case, a million nodes a frame otherwise).
  bool work = false;
  for (std::size_t si = 0; si < look.size(); ++si)
    if (t.nodes_in_space(std::uint8_t(si)) > 0)
      work |= look[si] == NodeLook::Dot || o.cell_fills ||
              (look[si] == NodeLook::Wedge && o.heading_wedges);

  // One pass: a Cells cell holds one node, so open and closed cells never cover each other and
  // need no ordering; the pass is memory-bound on large searches, so a second one would double
  // the cost. Heading nodes also tint their cell once (closed when any heading is), collected
  // here and drawn under the wedges.
  if ((o.open || o.closed) && work) {
    const Rgba open_c = style.colour(Role::Open), closed_c = style.colour(Role::Closed);
    bool any_open = false, any_closed = false;
    std::vector<std::pair<std::uint64_t, bool>> tints;  // (cell, closed), heading nodes only
    std::vector<const NodeState*> wedges;
    for (const NodeState& n : state.nodes()) {
      const bool is_open = n.status == NodeStatus::Open, is_closed = n.status == NodeStatus::Closed;
      if (!(is_open && o.open) && !(is_closed && o.closed)) continue;
      if (!level_ok(n)) continue;
      if (look[n.desc.space] == NodeLook::Wedge) {
        const CellXY c = *t.cell_of(n.desc);
        if (!cell_visible(c)) continue;
        if (o.cell_fills)
          tints.emplace_back(std::uint64_t(c.y) * std::uint64_t(o.grid_width) + std::uint64_t(c.x),
                             is_closed);
        wedges.push_back(&n);
        (is_open ? any_open : any_closed) = true;
        continue;
      }
      if (node(n, is_open ? open_c : closed_c, false, o.node_px))
        (is_open ? any_open : any_closed) = true;
    }
    // Closed sorts after open, so the last entry of a cell says whether any heading is closed.
    std::sort(tints.begin(), tints.end());
    for (std::size_t i = 0; i < tints.size(); ++i) {
      if (i + 1 < tints.size() && tints[i + 1].first == tints[i].first) continue;
      const auto x = int(tints[i].first % std::uint64_t(o.grid_width));
      const auto y = int(tints[i].first / std::uint64_t(o.grid_width));
      sink.cell(x, y, heading_cell_tint(tints[i].second ? closed_c : open_c));
    }
    for (const NodeState* n : wedges)
      node(*n, n->status == NodeStatus::Open ? open_c : closed_c, false, o.node_px);
    if (any_closed) sink.uses(StyleKey::of(Role::Closed));
    if (any_open) sink.uses(StyleKey::of(Role::Open));
  }

  if (o.parent_arrows) {
    const Rgba c = style.colour(StyleItem::ParentArrow);
    bool any = false;
    for (const NodeState& n : state.nodes()) {
      const NodeState* p = state.parent_of(n);
      if (!p || n.status == NodeStatus::Unseen || p->status == NodeStatus::Unseen || !level_ok(n))
        continue;
      const Vec2 from = anchor(n), to = anchor(*p);
      const Box b{std::min(from.x, to.x), std::min(from.y, to.y), std::max(from.x, to.x),
                  std::max(from.y, to.y)};
      if (!shows(o.visible, b)) continue;
      // Stop short of the parent's centre: its own arrow starts there.
      sink.arrow(from, from + (to - from) * 0.8, c, 1, 5);
      any = true;
    }
    if (any) sink.uses(StyleKey::of(StyleItem::ParentArrow));
  }

  if (o.current)
    if (const NodeState* cur = state.current(); cur && level_ok(*cur))
      if (node(*cur, style.colour(Role::Current), true, 2 * o.node_px))
        sink.uses(StyleKey::of(Role::Current));
}

// Cells a planner reported it treated as blocked (Role::Obstacle cell marks, e.g. the grid
// planners' circles rasterised into their grid): shaded cells on Layer::Terrain, under the
// search, one rectangle each, culled to the view. They are the world the planner searched, not
// a step's geometry: no halo, no history limit.
void draw_blocked_cells(DrawSink& sink, const FrameState& state, const Style& style,
                        const SearchDrawOptions& o) {
  // Hidden, they stay in the legend (as hidden shapes do) so a viewer can offer them back.
  const bool hidden = o.hidden_roles.test(std::size_t(Role::Obstacle));
  const Rgba c = blocked_cell_colour(style);
  bool any = false;
  for (const ShapeRecord& r : state.shapes()) {
    if (!is_blocked_cell(r) || (o.level && r.shape.level != *o.level)) continue;
    if (o.agent && !r.shape.requirement.admits(o.agent->capability, o.agent->size)) continue;
    any = true;
    if (hidden) break;
    const int x = int(std::floor(r.shape.a.x)), y = int(std::floor(r.shape.a.y));
    if (!o.visible || o.visible->overlaps_cell(x, y)) sink.cell(x, y, c);
  }
  if (any) sink.uses(StyleKey::of(Role::Obstacle));
}

// A shape's geometry and requirement (not its tag), to tell when a failed test names the very
// shape an earlier mark showed.
struct GeometryKey {
  std::array<double, 7> v{};
  std::uint64_t kind_and_requirement = 0;
  bool operator==(const GeometryKey&) const = default;
};
struct GeometryKeyHash {
  std::size_t operator()(const GeometryKey& k) const {
    std::uint64_t h = k.kind_and_requirement * 0x9E3779B97F4A7C15ull;
    for (double d : k.v) {
      std::uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      h = (h ^ bits) * 0x100000001B3ull;
    }
    return std::size_t(h ^ (h >> 29));
  }
};
GeometryKey geometry_key(const Shape& s) {
  GeometryKey k;
  k.v = {s.a.x, s.a.y, s.b.x, s.b.y, s.radius, s.angle, s.sweep};
  k.kind_and_requirement = (std::uint64_t(s.kind) << 56) |
                           (std::uint64_t(s.requirement.clearance) << 32) |
                           std::uint64_t(s.requirement.capability);
  return k;
}

void draw_shapes(DrawSink& sink, const FrameState& state, const Style& style,
                 const SearchDrawOptions& o) {
  const std::size_t frame = state.frame();
  const Rgba halo = style.colour(StyleItem::ThisFrame);
  // Without the history of failed tests, a shape that a later test rejected (the same
  // geometry and requirement: an HAA* candidate edge removed by dominance) is withdrawn too,
  // so what stays is what the planner kept. Each failed test withdraws one shape, the earliest
  // not after it: of two equal candidate edges, dominance removes one and the other stays.
  std::unordered_map<GeometryKey, std::multiset<std::uint32_t>, GeometryKeyHash> rejected_at;
  if (!o.rejected_history)
    for (const ShapeRecord& r : state.shapes())
      if (r.role == Role::Rejected && r.shape.kind != Shape::Kind::Polyline)
        rejected_at[geometry_key(r.shape)].insert(r.frame);
  for (const ShapeRecord& r : state.shapes()) {
    if (is_blocked_cell(r) || (o.level && r.shape.level != *o.level)) continue;
    if (o.agent && !r.shape.requirement.admits(o.agent->capability, o.agent->size)) continue;
    if (o.hidden_roles.test(std::size_t(r.role))) {
      sink.uses(StyleKey::of(r.role));
      continue;
    }
    if (o.shape_history && r.frame + o.shape_history <= frame) continue;
    if (!o.rejected_history && r.role == Role::Rejected && r.frame != frame) continue;
    if (!o.passed_history && r.is_test && r.ok && r.frame != frame) continue;
    if (!rejected_at.empty() && r.role != Role::Rejected && r.shape.kind != Shape::Kind::Polyline)
      if (const auto it = rejected_at.find(geometry_key(r.shape)); it != rejected_at.end())
        if (const auto f = it->second.lower_bound(r.frame); f != it->second.end()) {
          it->second.erase(f);
          continue;
        }
    if (!shows(o.visible, bounds(r.shape))) continue;
    if (o.highlight_this_frame && r.frame == frame) {
      shape_geometry(sink, r.shape, halo, o.line_px + 4, true);
      sink.uses(StyleKey::of(StyleItem::ThisFrame));
    }
    shape_geometry(sink, r.shape, style.colour(r.role), o.line_px, false);
    sink.uses(StyleKey::of(r.role));
  }
}

}  // namespace

std::vector<LegendEntry> build_legend(const DrawList& list, const Style& style, const Trace* trace) {
  std::vector<LegendEntry> out = build_legend(list, style);
  if (trace)
    for (LegendEntry& e : out)
      if (e.key.kind == StyleKey::Kind::Role)
        if (const std::string_view name = trace->role_name(Role(e.key.index)); !name.empty())
          e.label = name;
  return out;
}

void draw_heading_wedge(DrawSink& sink, CellXY cell, double heading, int k, Rgba fill,
                        double scale) {
  // k slices tile the cell's inscribed disc; one heading alone gets a third of it.
  const double half = std::min(kPi / std::max(k, 1), kPi / 3) * scale;
  const double r = 0.47;
  const Vec2 c{cell.x + 0.5, cell.y + 0.5};
  auto rim = [&](double a) { return c + Vec2{std::cos(a), std::sin(a)} * r; };
  sink.triangle(c, rim(heading - half), rim(heading + half), fill);
}

bool is_blocked_cell(const ShapeRecord& r) {
  return !r.is_test && r.role == Role::Obstacle && r.shape.kind == Shape::Kind::Cell;
}

void draw_path(DrawSink& sink, std::span<const PathPiece> pieces, const Style& style,
               float width_px) {
  if (pieces.empty() || !sink.wants(Layer::Path)) return;
  sink.set_layer(Layer::Path);
  const Rgba c = style.colour(Role::Path);
  for (const PathPiece& p : pieces) sink.path_piece(p, c, width_px);
  sink.uses(StyleKey::of(Role::Path));
}

void draw_search_state(DrawSink& sink, const FrameState& state, const Style& style,
                       const SearchDrawOptions& options) {
  if (options.blocked_cells && sink.wants(Layer::Terrain)) {
    sink.set_layer(Layer::Terrain);
    draw_blocked_cells(sink, state, style, options);
  }
  if (sink.wants(Layer::Search)) {
    sink.set_layer(Layer::Search);
    draw_nodes(sink, state, style, options);
  }
  if (options.shapes && sink.wants(Layer::Shapes)) {
    sink.set_layer(Layer::Shapes);
    draw_shapes(sink, state, style, options);
  }
  if (options.path) draw_path(sink, state.path(), style, options.path_px);
}

std::size_t draw_search_numbers(DrawSink& sink, const FrameState& state, int width, int height,
                                const MapRect& visible, const Style& style,
                                const SearchNumberOptions& options) {
  if (!sink.wants(Layer::Search) || width <= 0 || height <= 0) return 0;
  const CellRange r = cells_in(visible, width, height);
  if (r.count() == 0 || r.count() > options.max_cells) return 0;
  sink.set_layer(Layer::Search);
  const Trace& t = state.trace();
  const Rgba c = style.colour(StyleItem::ClearanceLabel);
  std::size_t n = 0;
  char buf[64];
  auto line = [&](double x, double y, int len, float size_px) {
    sink.text({x, y}, std::string_view(buf, std::size_t(std::clamp(len, 0, int(sizeof buf) - 1))),
              c, TextAnchor::Center, size_px);
  };
  // "g 12.5": a letter and a value to one decimal, as "%.1f" would print it (to_chars rounds the
  // same way), without printf's cost: a zoomed-in view writes a few thousand of these a frame.
  auto value_line = [&](char letter, double v) {
    buf[0] = letter;
    buf[1] = ' ';
    return int(std::to_chars(buf + 2, buf + sizeof buf, v, std::chars_format::fixed, 1).ptr - buf);
  };
  std::vector<const NodeState*> nodes;  // one buffer for every cell
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      state.nodes_at(x, y, nodes);
      if (nodes.empty()) continue;
      ++n;
      const bool headings = t.heading_index_of(nodes.front()->desc) >= 0;
      if (headings && options.every_heading) {
        // One line a heading, stacked around the cell's centre (or the middle of what the
        // clearance line leaves).
        const double mid = options.below_top_line ? 0.6 : 0.5,
                     room = options.below_top_line ? 0.7 : 0.9;
        const double step = std::min(0.28, room / double(nodes.size()));
        const double top = y + mid - step * double(nodes.size() - 1) / 2;
        for (std::size_t k = 0; k < nodes.size(); ++k) {
          const NodeState& v = *nodes[k];
          const std::string name = heading_name(t.heading_of(v.desc));
          line(x + 0.5, top + step * double(k),
               std::snprintf(buf, sizeof buf, "%s g %.1f h %.1f f %.1f", name.c_str(), v.g, v.h,
                             v.f()),
               options.size_px);
        }
        continue;
      }
      // The cell's best node (its only one for a Cells space); a heading cell names its heading
      // after f, a little smaller so the longer line still fits the cell.
      const NodeState* best = nodes.front();
      for (const NodeState* v : nodes)
        if (FrameState::better(*v, *best)) best = v;
      const float px = headings ? options.size_px * 0.8f : options.size_px;
      // Three lines at 0.22, 0.5, 0.78 of the cell, or the lower three of four.
      const double y0 = options.below_top_line ? 0.38 : 0.22,
                   dy = options.below_top_line ? 0.24 : 0.28;
      line(x + 0.5, y + y0, value_line('g', best->g), px);
      line(x + 0.5, y + y0 + dy, value_line('h', best->h), px);
      if (headings)
        line(x + 0.5, y + y0 + 2 * dy,
             std::snprintf(buf, sizeof buf, "f %.1f %s", best->f(),
                           heading_name(t.heading_of(best->desc)).c_str()),
             px);
      else
        line(x + 0.5, y + y0 + 2 * dy, value_line('f', best->f()), px);
    }
  return n;
}

std::size_t draw_clearance_numbers(DrawSink& sink, const ClearanceGrid& grid, int width, int height,
                                   const MapRect& visible, const Style& style,
                                   const ClearanceLabelOptions& options) {
  if (!sink.wants(Layer::Clearance) || width <= 0 || height <= 0 ||
      grid.size() != std::size_t(width) * std::size_t(height))
    return 0;
  const CellRange r = cells_in(visible, width, height);
  if (r.count() == 0 || r.count() > options.max_labels) return 0;
  sink.set_layer(Layer::Clearance);
  const Rgba c = style.colour(StyleItem::ClearanceLabel);
  std::size_t n = 0;
  char buf[10];
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const std::uint16_t v = grid[std::size_t(y) * std::size_t(width) + std::size_t(x)];
      if (v == 0 && !options.show_zero) continue;
      char* const start = options.top_line ? buf + 2 : buf;
      const auto end = std::to_chars(start, buf + sizeof buf, v).ptr;
      if (options.top_line) buf[0] = 'c', buf[1] = ' ';
      sink.text({x + 0.5, y + (options.top_line ? 0.14 : 0.5)},
                std::string_view(buf, std::size_t(end - buf)), c, TextAnchor::Center,
                options.size_px);
      ++n;
    }
  if (n) sink.uses(StyleKey::of(StyleItem::ClearanceLabel));
  return n;
}

std::size_t draw_grid_lines(DrawSink& sink, int width, int height, const MapRect& visible,
                            const Style& style, float width_px, int step) {
  if (!sink.wants(Layer::Terrain) || width <= 0 || height <= 0) return 0;
  step = std::max(step, 1);
  const double x0 = std::max(visible.x0, 0.0), x1 = std::min(visible.x1, double(width));
  const double y0 = std::max(visible.y0, 0.0), y1 = std::min(visible.y1, double(height));
  if (x0 > x1 || y0 > y1) return 0;
  sink.set_layer(Layer::Terrain);
  const Rgba c = style.colour(StyleItem::GridLine);
  std::size_t n = 0;
  auto first = [step](double v) {
    const long i = long(std::ceil(v));
    return (i + step - 1) / step * step;  // i >= 0 here
  };
  for (long x = first(x0); x <= long(std::floor(x1)); x += step, ++n)
    sink.line({double(x), y0}, {double(x), y1}, c, width_px);
  for (long y = first(y0); y <= long(std::floor(y1)); y += step, ++n)
    sink.line({x0, double(y)}, {x1, double(y)}, c, width_px);
  if (n) sink.uses(StyleKey::of(StyleItem::GridLine));
  return n;
}

double agent_heading_length(const Agent& agent) {
  return std::max({agent.radius, 0.5 * double(std::max(agent.size, 1)), 0.75});
}

void draw_agent(DrawSink& sink, const Agent& agent, const Style& style, const AgentDrawOptions& o) {
  if (!sink.wants(Layer::Agents)) return;
  sink.set_layer(Layer::Agents);
  const float outline = o.selected ? 3.f : 1.5f;
  const double s = std::max(agent.size, 1);
  const Rgba body = style.colour(StyleItem::Agent);
  // The footprint's upper-left cell is the cell holding the pose (DESIGN.md section 4).
  auto footprint_min = [](const Pose& p) { return Vec2{std::floor(p.x), std::floor(p.y)}; };
  auto heading_arrow = [&](const Pose& p, Rgba c) {
    const double len = agent_heading_length(agent);
    sink.arrow(p.position(), p.position() + Vec2{std::cos(p.heading), std::sin(p.heading)} * len, c,
               outline + 0.5f, 8);
  };
  bool body_used = false;
  const Vec2 fs = footprint_min(agent.start);
  if (o.footprint) {
    sink.rect(fs, fs + Vec2{s, s}, body.with_alpha(std::uint8_t(body.a / 3)));
    sink.rect_outline(fs, fs + Vec2{s, s}, body, outline);
    body_used = true;
  }
  if (o.radius && agent.radius > 0) {
    sink.circle(agent.start.position(), agent.radius, body, outline);
    body_used = true;
  }
  if (o.heading) {
    heading_arrow(agent.start, body);
    body_used = true;
  }
  if (o.turning_circles && agent.turning_radius > 0) {
    // Turning right is clockwise on screen, i.e. toward heading + pi/2 (headings grow clockwise).
    const Rgba tc = style.colour(StyleItem::TurningCircle);
    for (double side : {+1.0, -1.0}) {
      const double a = agent.start.heading + side * kPi / 2;
      sink.circle(agent.start.position() + Vec2{std::cos(a), std::sin(a)} * agent.turning_radius,
                  agent.turning_radius, tc, 1);
    }
    sink.uses(StyleKey::of(StyleItem::TurningCircle));
  }
  if (o.label && !agent.name.empty()) {
    sink.text({fs.x + s / 2, fs.y}, agent.name, body, TextAnchor::Bottom);
    body_used = true;
  }
  if (body_used) sink.uses(StyleKey::of(StyleItem::Agent));
  if (o.start) {
    sink.point(agent.start.position(), style.colour(Role::Start), 9);
    sink.uses(StyleKey::of(Role::Start));
  }
  if (o.goal) {
    const Rgba gc = style.colour(Role::Goal);
    const Vec2 fg = footprint_min(agent.goal);
    if (o.footprint) sink.rect_outline(fg, fg + Vec2{s, s}, gc, outline);
    if (o.heading) heading_arrow(agent.goal, gc);
    sink.point(agent.goal.position(), gc, 9);
    sink.uses(StyleKey::of(Role::Goal));
  }
}

void draw_scene_circles(DrawSink& sink, std::span<const Circle> circles, const Style& style,
                        double inflate) {
  if (circles.empty() || !sink.wants(Layer::Terrain)) return;
  sink.set_layer(Layer::Terrain);
  const Rgba c = style.colour(Role::Obstacle);
  for (const Circle& k : circles) {
    sink.disc(k.center(), k.r, c);
    sink.circle(k.center(), k.r, c.with_alpha(255), 1);
  }
  sink.uses(StyleKey::of(Role::Obstacle));
  if (inflate > 0) {
    const Rgba ic = style.colour(StyleItem::Inflation);
    for (const Circle& k : circles) sink.circle(k.center(), k.r + inflate, ic, 1.5f);
    sink.uses(StyleKey::of(StyleItem::Inflation));
  }
}

namespace {

// The cells of a width x height map on which some node is closed (a cell of heading nodes
// counts when any of its headings is), as cell indices, ascending.
std::vector<std::uint32_t> closed_cells(const FrameState& s, int width, int height) {
  std::vector<std::uint32_t> out;
  const CellIndexer cell(s.trace(), width, height);
  if (!cell.any()) return out;
  for (const NodeState& n : s.nodes())
    if (n.status == NodeStatus::Closed)
      if (const std::int64_t c = cell(n.desc); c >= 0) out.push_back(std::uint32_t(c));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

ClosedDifference closed_difference(const FrameState& a, const FrameState& b, int width,
                                   int height) {
  ClosedDifference d;
  if (width <= 0 || height <= 0) return d;
  const std::size_t cells = std::size_t(width) * std::size_t(height);
  const std::size_t nodes = a.nodes().size() + b.nodes().size();
  if (nodes * 16 < cells) {
    // A small search on a big map: sorting the closed sets beats scanning every cell.
    const auto ca = closed_cells(a, width, height), cb = closed_cells(b, width, height);
    std::set_difference(ca.begin(), ca.end(), cb.begin(), cb.end(), std::back_inserter(d.only_a));
    std::set_difference(cb.begin(), cb.end(), ca.begin(), ca.end(), std::back_inserter(d.only_b));
    d.both = ca.size() - d.only_a.size();
    return d;
  }
  // Otherwise one byte a cell (bit 0: closed in a, bit 1: closed in b) and one ordered scan,
  // linear where sorting hundreds of thousands of ids was the bottleneck.
  std::vector<std::uint8_t> mark(cells, 0);
  auto fill = [&](const FrameState& s, std::uint8_t bit) {
    const CellIndexer cell(s.trace(), width, height);
    if (!cell.any()) return;
    for (const NodeState& n : s.nodes())
      if (n.status == NodeStatus::Closed)
        if (const std::int64_t c = cell(n.desc); c >= 0) mark[std::size_t(c)] |= bit;
  };
  fill(a, 1);
  fill(b, 2);
  for (std::size_t i = 0; i < cells; ++i) {
    switch (mark[i]) {
      case 1:
        d.only_a.push_back(std::uint32_t(i));
        break;
      case 2:
        d.only_b.push_back(std::uint32_t(i));
        break;
      case 3:
        ++d.both;
        break;
      default:
        break;
    }
  }
  return d;
}

void draw_closed_difference(DrawSink& sink, const ClosedDifference& diff, int width,
                            const Style& style, const std::optional<MapRect>& visible,
                            double span) {
  const double t = std::clamp(span, 0.05, 1.0);
  if (width <= 0 || !sink.wants(Layer::Search)) return;
  sink.set_layer(Layer::Search);
  // A hatch over the cell, not a fill: the closed colour beneath stays the same in every view.
  // One diagonal per cell; neighbours' diagonals join into stripes, "/" for A and "\" for B, so
  // the two read apart by direction as well as by colour.
  auto emit = [&](const std::vector<std::uint32_t>& cells, StyleItem item, bool rising) {
    const Rgba c = style.colour(item);
    bool any = false;
    for (std::uint32_t i : cells) {
      const int x = int(i % std::uint32_t(width)), y = int(i / std::uint32_t(width));
      if (visible && !visible->overlaps_cell(x, y)) continue;
      if (rising)
        sink.line({x + 1.0 - t, y + 1.0}, {x + 1.0, y + 1.0 - t}, c, kDifferenceHatchPx);
      else
        sink.line({x + 1.0 - t, double(y)}, {x + 1.0, double(y) + t}, c, kDifferenceHatchPx);
      any = true;
    }
    if (any) sink.uses(StyleKey::of(item));
  };
  emit(diff.only_a, StyleItem::OnlyA, true);
  emit(diff.only_b, StyleItem::OnlyB, false);
}

}  // namespace pl
