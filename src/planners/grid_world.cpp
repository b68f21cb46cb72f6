#include "planners/grid_world.hpp"

#include <array>
#include <cmath>

namespace pl {

namespace {

// A point per vertex, heading toward the next one (the last along the final step; east for a
// path of one point).
void fill_points(PlanResult& r, const std::vector<Vec2>& v) {
  r.points.clear();
  const std::size_t n = v.size();
  r.points.reserve(n);
  // Cell paths repeat the same step for long runs: the heading of the previous step is reused.
  Vec2 prev{0, 0};
  double heading = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 d = i + 1 < n ? v[i + 1] - v[i] : (i > 0 ? v[i] - v[i - 1] : Vec2{1, 0});
    if (i == 0 || !(d == prev)) heading = std::atan2(d.y, d.x);
    prev = d;
    r.points.push_back({v[i].x, v[i].y, heading});
  }
}

void add_line(PlanResult& r, Vec2 a, Vec2 b) {
  PathPiece p;
  p.kind = PathPiece::Kind::Line;
  p.line = {a, b};
  r.pieces.push_back(p);
}

}  // namespace

void fill_polyline_path(PlanResult& r, const std::vector<Vec2>& vertices) {
  fill_points(r, vertices);
  r.pieces.clear();
  for (std::size_t i = 0; i + 1 < vertices.size(); ++i) add_line(r, vertices[i], vertices[i + 1]);
}

void show_found_path(const PlanResult& r, SearchObserver* observer,
                     std::initializer_list<std::pair<const char*, double>> counters) {
  if (!observer) return;
  observer->counter("expanded", double(r.expanded));
  for (const auto& [name, value] : counters) observer->counter(name, value);
  observer->path(r.pieces);
  observer->frame();
}

void fill_cell_path(PlanResult& r, const std::vector<Vec2>& cells) {
  fill_points(r, cells);
  r.pieces.clear();
  const std::size_t n = cells.size();
  for (std::size_t i = 0; i + 1 < n;) {
    std::size_t j = i + 1;
    const Vec2 d = cells[j] - cells[i];
    while (j + 1 < n && cells[j + 1] - cells[j] == d) ++j;
    add_line(r, cells[i], cells[j]);
    i = j;
  }
}

void fill_cell_runs(PlanResult& r, int x0, int y0, const std::vector<CellRun>& runs) {
  // The heading of each unit step as fill_points() computes it, once.
  static const std::array<double, 9> kHeading = [] {
    std::array<double, 9> h{};
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        h[std::size_t((dy + 1) * 3 + dx + 1)] = std::atan2(double(dy), double(dx));
    return h;
  }();
  // Sized exactly before anything is written, and every byte written once: a result is fresh
  // memory, whose first writes cost a brc202d query of the subgoal planner more than its search
  // (page faults, cache misses). resize() wrote each point twice (zeros first), and a piece
  // reserved per run spread the pieces over up to twice their memory. push_back never regrows.
  std::size_t steps = 0, pieces = 0;
  int pdx = 0, pdy = 0;  // the direction of the open piece (none yet)
  for (const CellRun& run : runs) {
    if (run.count == 0) continue;
    steps += run.count;
    if (run.dx != pdx || run.dy != pdy) ++pieces;
    pdx = run.dx;
    pdy = run.dy;
  }
  r.points.clear();
  r.points.reserve(steps + 1);
  r.pieces.clear();
  r.pieces.reserve(pieces);
  double x = x0 + 0.5, y = y0 + 0.5;
  double heading = kHeading[5];  // east: a path of one cell
  Vec2 piece{x, y};
  pdx = pdy = 0;
  for (const CellRun& run : runs) {
    if (run.count == 0) continue;
    if (run.dx != pdx || run.dy != pdy) {
      if (pdx != 0 || pdy != 0) add_line(r, piece, {x, y});
      piece = {x, y};
      pdx = run.dx;
      pdy = run.dy;
      heading = kHeading[std::size_t((run.dy + 1) * 3 + run.dx + 1)];
    }
    for (std::uint32_t k = 0; k < run.count; ++k) {
      r.points.push_back({x, y, heading});
      x += run.dx;
      y += run.dy;
    }
  }
  if (pdx != 0 || pdy != 0) add_line(r, piece, {x, y});
  r.points.push_back({x, y, heading});
}

ParamDesc circles_param() {
  return ParamDesc::choice(
      "circles",
      "The scene's circles as obstacles: centre = a cell is blocked when a circle covers its "
      "centre; touch = when a circle touches any part of it; ignore = circles are not obstacles",
      {"centre", "touch", "ignore"}, "centre")
      .labelled("circles as obstacles");
}

GridWorld::GridWorld(const ParamSet& ps) {
  const std::string& v = ps.get("circles");
  if (v == "centre") rule_ = CircleRasterRule::Centre;
  else if (v == "touch") rule_ = CircleRasterRule::Touch;
}

const GridMap& GridWorld::map(const Scene& scene) {
  if (!rule_ || scene.circles.empty()) return scene.map;
  CircleRasterOptions o;
  o.rule = *rule_;
  return cache_.get(scene.map, scene.circles, o);
}

void GridWorld::report_blocked(const Scene& scene, SearchObserver* observer) const {
  if (!observer || !rule_ || scene.circles.empty()) return;
  CircleRasterOptions o;
  o.rule = *rule_;
  const int w = scene.map.width(), h = scene.map.height();
  const std::vector<std::uint8_t> mask = circle_cell_mask(w, h, scene.circles, o);
  observer->phase("circles as obstacles");
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (mask[std::size_t(y) * std::size_t(w) + std::size_t(x)])
        observer->mark(Shape::cell(x, y), Role::Obstacle);
}

bool take_outcome(const SearchOutcome& out, PlanResult& r) {
  r.expanded = out.expanded;
  r.generated = out.generated;
  r.found = out.stopped;
  if (out.cancelled) {
    r.cancelled = true;
    r.message = "cancelled";
    return false;
  }
  if (!r.found) {
    r.message = "no path: the goal is not reachable for this agent";
    return false;
  }
  return true;
}

}  // namespace pl
