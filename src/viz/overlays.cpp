#include "viz/overlays.hpp"

#include <cstdio>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>

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

Vec2 position(const NodeState& n) {
  return {n.desc.x, n.desc.y};
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

void draw_nodes(DrawSink& sink, const FrameState& state, const Style& style,
                const SearchDrawOptions& o) {
  const int w = o.grid_width, h = o.grid_height;
  auto level_ok = [&](const NodeState& n) { return !o.level || n.desc.level == *o.level; };
  // Emits node n in colour c; false when culled.
  auto node = [&](const NodeState& n, Rgba c, double inset, float px) {
    if (const auto cell = node_cell(n, w, h)) {
      if (o.visible && !o.visible->overlaps_cell(cell->x, cell->y)) return false;
      sink.cell(cell->x, cell->y, c, inset);
      return true;
    }
    const Vec2 p = position(n);
    if (o.visible && !o.visible->contains(p)) return false;
    sink.point(p, c, px);
    // Nodes that differ only by heading (directional planners) would be one dot; a tick tells
    // them apart.
    if (std::isfinite(n.desc.heading))
      sink.line(p, p + Vec2{std::cos(n.desc.heading), std::sin(n.desc.heading)} * 0.4, c, 1.5f);
    return true;
  };

  // One pass: a grid cell holds one node, so open and closed cells never cover each other and
  // need no ordering; the pass is memory-bound on large searches, so a second one would double
  // the cost.
  if (o.open || o.closed) {
    const Rgba open_c = style.colour(Role::Open), closed_c = style.colour(Role::Closed);
    bool any_open = false, any_closed = false;
    for (const NodeState& n : state.nodes()) {
      if (n.status == NodeStatus::Open) {
        if (o.open && level_ok(n)) any_open |= node(n, open_c, 0, o.node_px);
      } else if (n.status == NodeStatus::Closed) {
        if (o.closed && level_ok(n)) any_closed |= node(n, closed_c, 0, o.node_px);
      }
    }
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
      const Vec2 from = position(n), to = position(*p);
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
      if (node(*cur, style.colour(Role::Current), 0.15, 2 * o.node_px))
        sink.uses(StyleKey::of(Role::Current));
}

void draw_shapes(DrawSink& sink, const FrameState& state, const Style& style,
                 const SearchDrawOptions& o) {
  const std::size_t frame = state.frame();
  const Rgba halo = style.colour(StyleItem::ThisFrame);
  for (const ShapeRecord& r : state.shapes()) {
    if (o.level && r.shape.level != *o.level) continue;
    if (o.agent && !r.shape.requirement.admits(o.agent->capability, o.agent->size)) continue;
    if (o.hidden_roles.test(std::size_t(r.role))) {
      sink.uses(StyleKey::of(r.role));
      continue;
    }
    if (o.shape_history && r.frame + o.shape_history <= frame) continue;
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

void draw_shape(DrawSink& sink, const Shape& shape, Rgba colour, float width_px) {
  shape_geometry(sink, shape, colour, width_px, false);
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
                                const MapRect& visible, const Style& style, std::size_t max_cells,
                                float size_px) {
  if (!sink.wants(Layer::Search) || width <= 0 || height <= 0) return 0;
  const CellRange r = cells_in(visible, width, height);
  if (r.count() == 0 || r.count() > max_cells) return 0;
  sink.set_layer(Layer::Search);
  const Rgba c = style.colour(StyleItem::ClearanceLabel);
  std::size_t n = 0;
  char buf[32];
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const NodeState* node = state.node_by_id(std::uint32_t(y) * std::uint32_t(width) + std::uint32_t(x));
      if (!node || node->status == NodeStatus::Unseen || !node_cell(*node, width, height)) continue;
      const double rows[3] = {node->g, node->h, node->f()};
      const char* names[3] = {"g", "h", "f"};
      for (int k = 0; k < 3; ++k) {
        const int len = std::snprintf(buf, sizeof buf, "%s %.1f", names[k], rows[k]);
        sink.text({x + 0.5, y + 0.22 + 0.28 * k}, std::string_view(buf, std::size_t(std::max(len, 0))), c,
                  TextAnchor::Center, size_px);
      }
      ++n;
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
  char buf[8];
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const std::uint16_t v = grid[std::size_t(y) * std::size_t(width) + std::size_t(x)];
      if (v == 0 && !options.show_zero) continue;
      const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
      sink.text({x + 0.5, y + 0.5}, std::string_view(buf, std::size_t(end - buf)), c,
                TextAnchor::Center, options.size_px);
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

std::vector<std::uint32_t> closed_cells(const FrameState& s, int width, int height) {
  std::vector<std::uint32_t> out;
  for (const NodeState& n : s.nodes())
    if (n.status == NodeStatus::Closed && node_cell(n, width, height)) out.push_back(n.desc.id);
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
    for (const NodeState& n : s.nodes())
      if (n.status == NodeStatus::Closed && node_cell(n, width, height)) mark[n.desc.id] |= bit;
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
                            const Style& style, const std::optional<MapRect>& visible) {
  if (width <= 0 || !sink.wants(Layer::Search)) return;
  sink.set_layer(Layer::Search);
  auto emit = [&](const std::vector<std::uint32_t>& cells, StyleItem item) {
    const Rgba c = style.colour(item);
    bool any = false;
    for (std::uint32_t i : cells) {
      const int x = int(i % std::uint32_t(width)), y = int(i / std::uint32_t(width));
      if (visible && !visible->overlaps_cell(x, y)) continue;
      sink.cell(x, y, c);
      any = true;
    }
    if (any) sink.uses(StyleKey::of(item));
  };
  emit(diff.only_a, StyleItem::OnlyA);
  emit(diff.only_b, StyleItem::OnlyB);
}

}  // namespace pl
