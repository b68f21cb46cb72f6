// Small planners for tests, one for each kind of node space (core/node_space.hpp), that report
// through the hook the way real planners do: they declare their space first, then open, relax
// and close ids of it, one frame per expansion. The viewer's tests (tests/test_node_spaces.cpp)
// check that replay, the timeline and drawing read every id only through the declared space;
// pathlab_test_app (tests/app/test_app_main.cpp) adds HeadingsPlanner to the app's registry for
// a screenshot of heading wedges. Nothing here is in the user-visible registry.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <numbers>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include "core/circle_raster.hpp"
#include "core/node_space.hpp"
#include "core/observer.hpp"
#include "planners/planner.hpp"

namespace pl::test {

// A directional search, the way Directional A* works at heart: a node is a cell and one of k
// headings (k = 4 or 8; heading i = i * 2 pi / k, 0 = east, clockwise on screen); a step moves
// one cell along the heading (a diagonal needs both side cells free), a turn changes the
// heading by one to either side on the spot for `turn_cost`. A* with the octile distance to the
// goal cell, which any heading may reach. The scene's circles block the cells whose centre they
// cover; the planner says which (Role::Obstacle cell marks) before it searches.
class HeadingsPlanner final : public Planner {
 public:
  explicit HeadingsPlanner(int k = 8, double turn_cost = 0.5) : k_(k), turn_cost_(turn_cost) {}

  PlanResult plan(const Scene& scene, const Query& query, const RunContext& ctx = {}) override {
    const Stopwatch clock;
    PlanResult r;
    const GridMap& map = scene.map;
    const int w = map.width(), h = map.height();
    const CapabilityMask cap =
        query.capability ? query.capability : map.palette().movingai_default_capability();
    const std::vector<std::uint8_t> circles = circle_cell_mask(w, h, scene.circles);
    auto free = [&](int x, int y) {
      return map.passable(x, y, cap) && !circles[std::size_t(y) * std::size_t(w) + std::size_t(x)];
    };
    const NodeSpace space = NodeSpace::cell_headings(w, h, k_);
    SearchObserver* o = ctx.observer;
    if (o) {
      o->phase("blocked cells");
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          if (map.passable(x, y, cap) && !free(x, y)) o->mark(Shape::cell(x, y), Role::Obstacle);
      o->frame();
      o->phase("search");
      o->space(space);
    }
    const int sx = int(std::floor(query.start.x)), sy = int(std::floor(query.start.y));
    const int gx = int(std::floor(query.goal.x)), gy = int(std::floor(query.goal.y));
    if (!map.in_bounds(sx, sy) || !map.in_bounds(gx, gy) || !free(sx, sy) || !free(gx, gy)) {
      r.message = "start or goal is blocked";
      r.time_ms = clock.ms();
      return r;
    }
    const double step = 2 * std::numbers::pi / k_;
    const int start_heading =
        int(std::lround(std::remainder(query.start.heading, 2 * std::numbers::pi) / step) + k_) % k_;
    const std::size_t n = std::size_t(w) * std::size_t(h) * std::size_t(k_);
    std::vector<double> g(n, std::numeric_limits<double>::infinity());
    std::vector<std::uint32_t> parent(n, kNoNode);
    std::vector<char> closed(n, 0);
    auto octile = [&](int x, int y) {
      const double dx = std::abs(x - gx), dy = std::abs(y - gy);
      return std::max(dx, dy) + (std::sqrt(2.0) - 1) * std::min(dx, dy);
    };
    auto desc = [&](int x, int y, int i) {
      return NodeDesc{space.heading_id(x, y, i), float(x + 0.5), float(y + 0.5),
                      float(space.heading_of_index(i))};
    };
    // (f, -g, id): smaller f first, then larger g, then smaller id.
    using Item = std::tuple<double, double, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    const std::uint32_t start = space.heading_id(sx, sy, start_heading) - space.base;
    g[start] = 0;
    if (o) o->open(desc(sx, sy, start_heading), kNoNode, 0, octile(sx, sy));
    open.push({octile(sx, sy), 0, start});
    std::uint32_t goal = kNoNode;
    while (!open.empty()) {
      if (ctx.cancelled()) {
        r.cancelled = true;
        break;
      }
      const std::uint32_t cur = std::get<2>(open.top());
      open.pop();
      if (closed[cur]) continue;
      closed[cur] = 1;
      ++r.expanded;
      const int i = int(cur % std::uint32_t(k_));
      const int x = int(cur / std::uint32_t(k_) % std::uint32_t(w));
      const int y = int(cur / std::uint32_t(k_) / std::uint32_t(w));
      if (o) o->close(space.base + cur);
      if (x == gx && y == gy) {
        goal = cur;
        if (o) o->frame();
        break;
      }
      auto reach = [&](int nx, int ny, int ni, double cost) {
        const std::uint32_t nb = space.heading_id(nx, ny, ni) - space.base;
        const double ng = g[cur] + cost;
        if (closed[nb] || !(ng < g[nb])) return;
        const bool fresh = std::isinf(g[nb]);
        g[nb] = ng;
        parent[nb] = cur;
        ++r.generated;
        if (o) {
          if (fresh)
            o->open(desc(nx, ny, ni), space.base + cur, ng, octile(nx, ny));
          else
            o->relax(space.base + nb, space.base + cur, ng);
        }
        open.push({ng + octile(nx, ny), -ng, nb});
      };
      const double a = space.heading_of_index(i);
      const int dx = int(std::lround(std::cos(a))), dy = int(std::lround(std::sin(a)));
      const int nx = x + dx, ny = y + dy;
      if (map.in_bounds(nx, ny) && free(nx, ny) && (dx == 0 || dy == 0 || (free(nx, y) && free(x, ny))))
        reach(nx, ny, i, std::hypot(double(dx), double(dy)));
      reach(x, y, (i + 1) % k_, turn_cost_);
      reach(x, y, (i + k_ - 1) % k_, turn_cost_);
      if (o) o->frame();
    }
    if (goal != kNoNode) {
      std::vector<Vec2> cells;
      for (std::uint32_t c = goal; c != kNoNode; c = parent[c]) {
        const std::uint32_t cell = c / std::uint32_t(k_);
        const Vec2 p{double(cell % std::uint32_t(w)) + 0.5, double(cell / std::uint32_t(w)) + 0.5};
        if (cells.empty() || !(cells.back() == p)) cells.push_back(p);
      }
      std::reverse(cells.begin(), cells.end());
      r.found = true;
      for (std::size_t j = 0; j < cells.size(); ++j) {
        r.points.push_back({cells[j].x, cells[j].y, 0});
        if (j) {
          PathPiece piece;
          piece.line = Segment{cells[j - 1], cells[j]};
          r.length += piece.length();
          r.pieces.push_back(piece);
        }
      }
      if (o) o->path(r.pieces);
    } else if (!r.cancelled) {
      r.message = "no path";
    }
    r.time_ms = clock.ms();
    return r;
  }

 private:
  int k_;
  double turn_cost_;
};

// The registry entry pathlab_test_app adds: "test-headings", 8 headings.
inline PlannerInfo headings_planner_info() {
  PlannerInfo info;
  info.name = "test-headings";
  info.family = "test";
  info.description = "Test only: a search over cells x 8 headings (steps along the heading, turns on the spot)";
  info.optimal = false;
  info.make = [](const ParamSet&) { return std::make_unique<HeadingsPlanner>(8); };
  info.agent_inputs = AgentInput::Capability | AgentInput::Headings;  // the start heading
  return info;
}

// A search over a small explicit graph whose ids come from one node space: Dijkstra from node 0,
// one frame per expansion. The graph says what each node is; the reports say nothing of it but
// the id, the described position (and heading, level) and the label, as a planner would.
struct FakeGraph {
  NodeSpace space;
  struct Node {
    std::uint32_t id = kNoNode;
    Vec2 at;                                                   // described position
    float heading = std::numeric_limits<float>::quiet_NaN();  // described heading
    std::int16_t level = 0;
    std::string label = {};  // empty: none (the space's default label)
  };
  std::vector<Node> nodes;
  std::vector<std::vector<int>> next;  // edges, by node index

  void add_edge(int a, int b) {
    next[std::size_t(a)].push_back(b);
    next[std::size_t(b)].push_back(a);
  }

  // Reports the search to `o`. Labels travel in a buffer that is overwritten after every report,
  // as a planner formatting names on the fly would do: observers must copy them.
  void search(SearchObserver& o) const {
    o.phase("fake search");
    o.space(space);
    std::vector<double> g(nodes.size(), std::numeric_limits<double>::infinity());
    std::vector<char> closed(nodes.size(), 0);
    char label[64];
    auto report_open = [&](int v, int from) {
      const Node& nd = nodes[std::size_t(v)];
      NodeDesc d{nd.id, float(nd.at.x), float(nd.at.y), nd.heading, nd.level};
      if (!nd.label.empty()) {
        std::snprintf(label, sizeof label, "%s", nd.label.c_str());
        d.label = label;
      }
      o.open(d, from < 0 ? kNoNode : nodes[std::size_t(from)].id, g[std::size_t(v)], 0);
      std::snprintf(label, sizeof label, "overwritten");
    };
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    g[0] = 0;
    report_open(0, -1);
    open.push({0, 0});
    while (!open.empty()) {
      const int v = open.top().second;
      open.pop();
      if (closed[std::size_t(v)]) continue;
      closed[std::size_t(v)] = 1;
      o.close(nodes[std::size_t(v)].id);
      for (const int u : next[std::size_t(v)]) {
        const double ng = g[std::size_t(v)] + distance(nodes[std::size_t(v)].at, nodes[std::size_t(u)].at);
        if (closed[std::size_t(u)] || !(ng < g[std::size_t(u)])) continue;
        const bool fresh = std::isinf(g[std::size_t(u)]);
        g[std::size_t(u)] = ng;
        if (fresh) report_open(u, v);
        else o.relax(nodes[std::size_t(u)].id, nodes[std::size_t(v)].id, ng);
        open.push({ng, u});
      }
      o.frame();
    }
  }
};

// A cols x rows lattice of grid points, 4-connected: point (x, y) has id `id(x, y)` of `space`
// and is described at (x, y) + offset.
inline FakeGraph lattice(const NodeSpace& space, int cols, int rows,
                         const std::function<std::uint32_t(int, int)>& id, Vec2 offset) {
  FakeGraph f;
  f.space = space;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) f.nodes.push_back({id(x, y), Vec2{double(x), double(y)} + offset});
  f.next.resize(f.nodes.size());
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      if (x + 1 < cols) f.add_edge(y * cols + x, y * cols + x + 1);
      if (y + 1 < rows) f.add_edge(y * cols + x, (y + 1) * cols + x);
    }
  return f;
}

// Every cell of a w x h map; the described positions are cell centres.
inline FakeGraph cells_graph(int w, int h, std::uint32_t base = 0) {
  const NodeSpace s = NodeSpace::cells(w, h, base);
  return lattice(s, w, h, [&](int x, int y) { return s.cell_id(x, y); }, {0.5, 0.5});
}

// Every corner of a w x h map ((w+1) x (h+1) integer points).
inline FakeGraph corners_graph(int w, int h, std::uint32_t base = 0) {
  const NodeSpace s = NodeSpace::corners(w, h, base);
  return lattice(s, w + 1, h + 1, [&](int x, int y) { return s.corner_id(x, y); }, {0, 0});
}

// An abstract layer (level 1) of a few nodes in a ring with one chord, named "entrance i" by
// the planner except node 2, which goes by its space's default label.
inline FakeGraph layer_graph(std::uint32_t base) {
  FakeGraph f;
  const Vec2 at[] = {{1.5, 1.5}, {6.5, 1.5}, {6.5, 5.5}, {1.5, 5.5}, {4.0, 3.5}};
  f.space = NodeSpace::layer(5, 1, base, "abstract graph");
  for (std::uint32_t i = 0; i < 5; ++i)
    f.nodes.push_back({base + i, at[i], std::numeric_limits<float>::quiet_NaN(), 1,
                       i == 2 ? std::string() : "entrance " + std::to_string(i)});
  f.next.resize(5);
  for (int i = 0; i < 4; ++i) f.add_edge(i, (i + 1) % 4);
  f.add_edge(0, 4);
  f.add_edge(4, 2);
  return f;
}

// Free points in an unbounded Points space (ids from base on, sparse), with headings (poses):
// tangent points around a circle, named "tangent i cw" / "... ccw".
inline FakeGraph points_graph(std::uint32_t base) {
  FakeGraph f;
  f.space = NodeSpace::points(0, base, "tangent points");
  for (std::uint32_t i = 0; i < 6; ++i) {
    const double a = i * std::numbers::pi / 3;
    f.nodes.push_back({base + 7 * i, {5 + 3 * std::cos(a), 4 + 3 * std::sin(a)},
                       float(a + std::numbers::pi / 2), 0,
                       "tangent " + std::to_string(i) + (i % 2 ? " ccw" : " cw")});
  }
  f.next.resize(6);
  for (int i = 0; i < 6; ++i) f.add_edge(i, (i + 1) % 6);
  return f;
}

}  // namespace pl::test
