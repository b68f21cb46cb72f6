#include "editor/tools.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/error.hpp"

namespace pl::editor {

// ---- Terrain painting

Brush eraser(const Palette& palette, int size, BrushShape shape) {
  return Brush{palette.default_ground(), size, shape};
}

namespace {

void check_terrain(const Document& doc, TerrainId t) {
  if (t >= doc.scene().map.palette().size())
    throw InputError("terrain " + std::to_string(int(t)) + " is not in the palette");
}

void check_brush(const Document& doc, const Brush& b) {
  check_terrain(doc, b.terrain);
  if (b.size < 1) throw InputError("brush size must be at least 1");
}

// Calls f(x, y) for every cell of a stamp, unclipped.
template <class F>
void for_each_stamp_cell(const Brush& b, int cx, int cy, F&& f) {
  const int lo_x = cx - (b.size - 1) / 2, lo_y = cy - (b.size - 1) / 2;
  const double centre_x = lo_x + b.size / 2.0, centre_y = lo_y + b.size / 2.0;
  const double r = b.size / 2.0 - 0.25;
  for (int y = lo_y; y < lo_y + b.size; ++y)
    for (int x = lo_x; x < lo_x + b.size; ++x) {
      if (b.shape == BrushShape::Round) {
        const double dx = x + 0.5 - centre_x, dy = y + 0.5 - centre_y;
        if (dx * dx + dy * dy > r * r) continue;
      }
      f(x, y);
    }
}

}  // namespace

std::vector<Cell> brush_footprint(const Brush& brush, int cx, int cy, int map_w, int map_h) {
  std::vector<Cell> out;
  for_each_stamp_cell(brush, cx, cy, [&](int x, int y) {
    if (x >= 0 && y >= 0 && x < map_w && y < map_h) out.push_back({x, y});
  });
  return out;
}

std::vector<Cell> bresenham_line(int x0, int y0, int x1, int y1) {
  std::vector<Cell> out;
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
  const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  int err = dx + dy;
  out.reserve(size_t(std::max(dx, -dy)) + 1);
  for (;;) {
    out.push_back({x0, y0});
    if (x0 == x1 && y0 == y1) break;
    const int e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += sy;
    }
  }
  return out;
}

void paint_brush(Document& doc, const Brush& brush, int cx, int cy) {
  check_brush(doc, brush);
  Document::Step step(doc, "Brush");
  for_each_stamp_cell(brush, cx, cy, [&](int x, int y) { doc.set_cell(x, y, brush.terrain); });
}

void paint_line(Document& doc, const Brush& brush, int x0, int y0, int x1, int y1) {
  check_brush(doc, brush);
  Document::Step step(doc, "Line");
  for (const Cell& c : bresenham_line(x0, y0, x1, y1))
    for_each_stamp_cell(brush, c.x, c.y, [&](int x, int y) { doc.set_cell(x, y, brush.terrain); });
}

void paint_rect(Document& doc, TerrainId terrain, int x0, int y0, int x1, int y1) {
  check_terrain(doc, terrain);
  const GridMap& m = doc.scene().map;
  const int lx = std::max(std::min(x0, x1), 0), hx = std::min(std::max(x0, x1), m.width() - 1);
  const int ly = std::max(std::min(y0, y1), 0), hy = std::min(std::max(y0, y1), m.height() - 1);
  Document::Step step(doc, "Rectangle");
  for (int y = ly; y <= hy; ++y)
    for (int x = lx; x <= hx; ++x) doc.set_cell(x, y, terrain);
}

void flood_fill(Document& doc, TerrainId terrain, int x, int y) {
  check_terrain(doc, terrain);
  const GridMap& m = doc.scene().map;
  if (!m.in_bounds(x, y)) return;
  const TerrainId target = m.at(x, y);
  if (target == terrain) return;
  Document::Step step(doc, "Fill");
  // Painting a cell is what marks it visited: it no longer holds `target`.
  std::vector<Cell> stack = {{x, y}};
  doc.set_cell(x, y, terrain);
  const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
  while (!stack.empty()) {
    const Cell c = stack.back();
    stack.pop_back();
    for (int k = 0; k < 4; ++k) {
      const int nx = c.x + dx[k], ny = c.y + dy[k];
      if (m.in_bounds(nx, ny) && m.at(nx, ny) == target) {
        doc.set_cell(nx, ny, terrain);
        stack.push_back({nx, ny});
      }
    }
  }
}

// ---- Circles

namespace {

double checked_radius(double r) {
  if (!std::isfinite(r)) throw InputError("circle radius must be a finite number");
  return std::max(r, kMinCircleRadius);
}

Vec2 checked_point(Vec2 p, const char* what) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y))
    throw InputError(std::string(what) + " must be finite");
  return p;
}

}  // namespace

std::size_t add_circle(Document& doc, Vec2 centre, double radius) {
  checked_point(centre, "circle centre");
  const Circle c{centre.x, centre.y, checked_radius(radius)};
  Document::Step step(doc, "Add circle");
  const std::size_t i = doc.scene().circles.size();
  doc.insert_circle(i, c);
  return i;
}

void move_circle(Document& doc, std::size_t i, Vec2 centre) {
  checked_point(centre, "circle centre");
  Circle c = doc.scene().circles.at(i);
  c.x = centre.x;
  c.y = centre.y;
  Document::Step step(doc, "Move circle");
  doc.set_circle(i, c);
}

void resize_circle(Document& doc, std::size_t i, double radius) {
  Circle c = doc.scene().circles.at(i);
  c.r = checked_radius(radius);
  Document::Step step(doc, "Resize circle");
  doc.set_circle(i, c);
}

void remove_circle(Document& doc, std::size_t i) {
  if (i >= doc.scene().circles.size()) throw std::out_of_range("remove_circle: index");
  Document::Step step(doc, "Delete circle");
  doc.erase_circle(i);
}

std::optional<std::size_t> pick_circle(const Scene& scene, Vec2 p) {
  for (std::size_t i = scene.circles.size(); i-- > 0;) {
    const Circle& c = scene.circles[i];
    if (distance(c.center(), p) <= c.r) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> pick_circle_rim(const Scene& scene, Vec2 p, double tolerance) {
  for (std::size_t i = scene.circles.size(); i-- > 0;) {
    const Circle& c = scene.circles[i];
    if (std::abs(distance(c.center(), p) - c.r) <= tolerance) return i;
  }
  return std::nullopt;
}

// ---- Agents

void check_agent(const Scene& scene, const Agent& a) {
  if (a.size < 1) throw InputError("agent '" + a.name + "': size must be at least 1");
  if (!std::isfinite(a.radius) || a.radius < 0)
    throw InputError("agent '" + a.name + "': radius must be a finite number >= 0");
  if (!std::isfinite(a.turning_radius) || a.turning_radius < 0)
    throw InputError("agent '" + a.name + "': turning radius must be a finite number >= 0");
  for (const Pose& p : {a.start, a.goal})
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.heading))
      throw InputError("agent '" + a.name + "': start and goal must be finite");
  const Palette& pal = scene.map.palette();
  for (int t = 0; t < kMaxTerrains; ++t) {
    if (!(a.capability >> t & 1u)) continue;
    if (t >= pal.size())
      throw InputError("agent '" + a.name + "': capability names terrain " + std::to_string(t) +
                       ", which the palette does not have");
    if (pal[TerrainId(t)].obstacle)
      throw InputError("agent '" + a.name + "': capability includes the hard obstacle '" +
                       pal[TerrainId(t)].name + "'");
  }
}

namespace {

// Keeps a point on the map: floor(x) must name a cell, so the upper bound is just below the
// far edge.
Vec2 clamp_to_map(const GridMap& m, Vec2 p) {
  if (m.width() <= 0 || m.height() <= 0) return p;
  return {std::clamp(p.x, 0.0, std::nextafter(double(m.width()), 0.0)),
          std::clamp(p.y, 0.0, std::nextafter(double(m.height()), 0.0))};
}

Agent clamped_agent(const GridMap& m, Agent a) {
  for (Pose* p : {&a.start, &a.goal}) {
    const Vec2 q = clamp_to_map(m, p->position());
    p->x = q.x;
    p->y = q.y;
  }
  return a;
}

Pose& endpoint(Agent& a, Endpoint which) {
  return which == Endpoint::Start ? a.start : a.goal;
}

// Applies `edit` to a copy of agent i, checks it and writes it back as one step.
template <class F>
void edit_agent(Document& doc, std::size_t i, const char* label, F&& edit) {
  Agent a = doc.scene().agents.at(i);
  edit(a);
  check_agent(doc.scene(), a);
  Document::Step step(doc, label);
  doc.set_agent(i, a);
}

}  // namespace

std::size_t add_agent(Document& doc, const Agent& agent) {
  check_agent(doc.scene(), agent);
  Document::Step step(doc, "Add agent");
  const std::size_t i = doc.scene().agents.size();
  doc.insert_agent(i, agent);
  return i;
}

void remove_agent(Document& doc, std::size_t i) {
  if (i >= doc.scene().agents.size()) throw std::out_of_range("remove_agent: index");
  Document::Step step(doc, "Delete agent");
  doc.erase_agent(i);
}

void set_agent(Document& doc, std::size_t i, const Agent& agent) {
  edit_agent(doc, i, "Edit agent", [&](Agent& a) { a = agent; });
}

void set_agent_position(Document& doc, std::size_t i, Endpoint which, Vec2 p) {
  checked_point(p, "agent position");
  const Vec2 q = clamp_to_map(doc.scene().map, p);
  edit_agent(doc, i, which == Endpoint::Start ? "Move start" : "Move goal", [&](Agent& a) {
    endpoint(a, which).x = q.x;
    endpoint(a, which).y = q.y;
  });
}

void set_agent_heading(Document& doc, std::size_t i, Endpoint which, double heading) {
  if (!std::isfinite(heading)) throw InputError("heading must be finite");
  edit_agent(doc, i, "Turn agent",
             [&](Agent& a) { endpoint(a, which).heading = normalize_angle(heading); });
}

void aim_agent_heading(Document& doc, std::size_t i, Endpoint which, Vec2 toward) {
  checked_point(toward, "heading handle");
  Agent a = doc.scene().agents.at(i);
  const Pose& p = endpoint(a, which);
  const double dx = toward.x - p.x, dy = toward.y - p.y;
  if (dx == 0 && dy == 0) return;  // atan2(0, 0) would snap the heading east
  // y grows downward, so atan2(dy, dx) already grows clockwise on screen.
  set_agent_heading(doc, i, which, std::atan2(dy, dx));
}

void set_agent_size(Document& doc, std::size_t i, int size) {
  edit_agent(doc, i, "Agent size", [&](Agent& a) { a.size = size; });
}

void set_agent_capability(Document& doc, std::size_t i, CapabilityMask capability) {
  edit_agent(doc, i, "Agent capability", [&](Agent& a) { a.capability = capability; });
}

void set_agent_radius(Document& doc, std::size_t i, double radius) {
  edit_agent(doc, i, "Agent radius", [&](Agent& a) { a.radius = radius; });
}

void set_agent_turning_radius(Document& doc, std::size_t i, double turning_radius) {
  edit_agent(doc, i, "Turning radius", [&](Agent& a) { a.turning_radius = turning_radius; });
}

void set_agent_can_reverse(Document& doc, std::size_t i, bool can_reverse) {
  edit_agent(doc, i, "Agent reversing", [&](Agent& a) { a.can_reverse = can_reverse; });
}

void set_agent_name(Document& doc, std::size_t i, const std::string& name) {
  edit_agent(doc, i, "Rename agent", [&](Agent& a) { a.name = name; });
}

std::optional<AgentHandle> pick_agent_endpoint(const Scene& scene, Vec2 p, double tolerance) {
  std::optional<AgentHandle> best;
  double best_d = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < scene.agents.size(); ++i)
    for (Endpoint which : {Endpoint::Start, Endpoint::Goal}) {
      const Pose& q = which == Endpoint::Start ? scene.agents[i].start : scene.agents[i].goal;
      const double d = distance(q.position(), p);
      if (d <= tolerance && d <= best_d) {
        best_d = d;
        best = AgentHandle{i, which};
      }
    }
  return best;
}

Vec2 snap_to_cell_centre(Vec2 p) {
  return {std::floor(p.x) + 0.5, std::floor(p.y) + 0.5};
}

// ---- Whole-map operations

namespace {

// Clamps every agent into the (new) map, inside the current step.
void clamp_agents(Document& doc) {
  const Scene& s = doc.scene();
  for (std::size_t i = 0; i < s.agents.size(); ++i)
    doc.set_agent(i, clamped_agent(s.map, s.agents[i]));
}

}  // namespace

void new_map(Document& doc, int width, int height) {
  const GridMap& old = doc.scene().map;
  GridMap m(width, height, old.palette().default_ground(), old.palette());
  Document::Step step(doc, "New map");
  doc.replace_map(std::move(m), std::nullopt);
  doc.replace_circles({});
  clamp_agents(doc);
}

void resize_map(Document& doc, int width, int height) {
  const GridMap& old = doc.scene().map;
  GridMap m(width, height, old.palette().default_ground(), old.palette());
  const int cw = std::min(width, old.width()), ch = std::min(height, old.height());
  std::vector<TerrainId> cells = m.cells();
  for (int y = 0; y < ch; ++y)
    std::copy_n(old.cells().begin() + std::ptrdiff_t(old.index(0, y)), cw,
                cells.begin() + std::ptrdiff_t(size_t(y) * size_t(width)));
  m.assign(std::move(cells));
  Document::Step step(doc, "Resize map");
  doc.replace_map(std::move(m), std::nullopt);
  clamp_agents(doc);
}

void apply_generator(Document& doc, const GeneratorParams& params) {
  GridMap m = doc.scene().map;
  pl::apply_generator(m, params);  // checks first; throws before the document changes
  Document::Step step(doc, "Generate " + std::string(generator_name(params.kind)));
  doc.replace_map(std::move(m), std::nullopt);
}

}  // namespace pl::editor
