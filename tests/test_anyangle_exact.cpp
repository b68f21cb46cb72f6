// The exact any-angle planner (planners/visibility.*):
//  - agrees with a brute-force visibility graph over EVERY corner (Dijkstra, written here) on
//    thousands of queries over random small maps: corner queries and cell-centre queries, found
//    and not found, lengths and valid paths;
//  - reproduces every optimum of the three any-angle scenario files (../shared/anyangle);
//  - caches its graph per map version, reports preparation, refuses graphs over its limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "anyangle_test_util.hpp"
#include "cli_util.hpp"
#include "core/io.hpp"
#include "core/line_of_sight.hpp"
#include "core/scene.hpp"
#include "planners/planner.hpp"
#include "planners/visibility.hpp"

namespace pl {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Brute force: Dijkstra over the visibility graph of every corner (no convexity, no tautness),
// O(n^2) per query. The start and goal are points; a point that is not a corner joins the four
// corners of its cell by straight legs (and the other point directly when both share a cell). A
// path may not turn at a pinch corner (two diagonal blocked cells), nor leave through one a
// point's leg reached, unless it is the start corner itself.
double brute_force(const CornerGrid& g, double spx, double spy, double gpx, double gpy) {
  const int w1 = g.width() + 1, n = w1 * (g.height() + 1);
  const bool scorner = spx == std::floor(spx) && spy == std::floor(spy);
  const bool gcorner = gpx == std::floor(gpx) && gpy == std::floor(gpy);
  std::vector<double> d(std::size_t(n), kInf);
  std::vector<char> done(std::size_t(n), 0);
  int start_corner = -1;
  if (scorner) {
    start_corner = int(spy) * w1 + int(spx);
    d[std::size_t(start_corner)] = 0;
  } else {
    const int cx = int(spx), cy = int(spy);
    for (int k = 0; k < 4; ++k) {
      const int x = cx + (k & 1), y = cy + (k >> 1);
      d[std::size_t(y * w1 + x)] = std::hypot(x - spx, y - spy);
    }
  }
  double best = kInf;
  if (!scorner && !gcorner && int(spx) == int(gpx) && int(spy) == int(gpy))
    best = std::hypot(gpx - spx, gpy - spy);
  for (;;) {
    int c = -1;
    for (int i = 0; i < n; ++i)
      if (!done[std::size_t(i)] && d[std::size_t(i)] < kInf &&
          (c < 0 || d[std::size_t(i)] < d[std::size_t(c)]))
        c = i;
    if (c < 0 || d[std::size_t(c)] >= best) break;
    done[std::size_t(c)] = 1;
    const int x = c % w1, y = c / w1;
    if (gcorner && x == int(gpx) && y == int(gpy)) {
      best = std::min(best, d[std::size_t(c)]);
      break;
    }
    if (g.pinch(x, y) && c != start_corner) continue;
    if (!gcorner && x - int(gpx) >= 0 && x - int(gpx) <= 1 && y - int(gpy) >= 0 && y - int(gpy) <= 1)
      best = std::min(best, d[std::size_t(c)] + std::hypot(gpx - x, gpy - y));
    for (int i = 0; i < n; ++i) {
      if (done[std::size_t(i)]) continue;
      const int nx = i % w1, ny = i / w1;
      if (!g.visible(x, y, nx, ny)) continue;
      d[std::size_t(i)] = std::min(d[std::size_t(i)], d[std::size_t(c)] + std::hypot(nx - x, ny - y));
    }
  }
  return best;
}

TEST(Visibility, AgreesWithBruteForceOnRandomMaps) {
  std::mt19937 rng(1212);
  auto planner = Registry::builtin().create("visibility");
  int found = 0, total = 0, multi_bend = 0;
  for (int map = 0; map < 2000; ++map) {
    Scene scene;
    const int w = 2 + int(rng() % 9), h = 2 + int(rng() % 9);
    scene.map = random_map(rng, w, h, 5 + int(rng() % 40));
    const CornerGrid grid(scene.map, 0);
    for (int k = 0; k < 3; ++k) {
      double sx = double(rng() % unsigned(w + 1)), sy = double(rng() % unsigned(h + 1));
      double gx = double(rng() % unsigned(w + 1)), gy = double(rng() % unsigned(h + 1));
      if (k == 2) {  // cell centres (open cells only), the app's and MovingAI's query points
        sx = std::min(sx, double(w - 1)) + 0.5;
        sy = std::min(sy, double(h - 1)) + 0.5;
        gx = std::min(gx, double(w - 1)) + 0.5;
        gy = std::min(gy, double(h - 1)) + 0.5;
        if (grid.blocked(int(sx), int(sy)) || grid.blocked(int(gx), int(gy))) continue;
      }
      const double want = brute_force(grid, sx, sy, gx, gy);
      const PlanResult r = planner->plan(scene, query(sx, sy, gx, gy));
      ++total;
      ASSERT_EQ(r.found, want < kInf) << "map " << map << " (" << sx << "," << sy << ") -> ("
                                      << gx << "," << gy << ") " << r.message;
      if (!r.found) continue;
      ++found;
      ASSERT_NEAR(r.length, want, 1e-9) << "map " << map << " (" << sx << "," << sy << ") -> ("
                                        << gx << "," << gy << ")";
      double sum = 0;
      for (const PathPiece& p : r.pieces) sum += p.length();
      ASSERT_NEAR(sum, r.length, 1e-9);
      auto pts = path_points(r);
      if (pts.size() > 3) ++multi_bend;
      if (k < 2 && !pts.empty()) {
        ASSERT_TRUE(pts.front() == (Vec2{sx, sy}));
        ASSERT_TRUE(pts.back() == (Vec2{gx, gy}));
        std::string why;
        ASSERT_TRUE(grid.path_valid(pts, &why)) << why;
      }
    }
  }
  EXPECT_GT(total, 5000);
  EXPECT_GT(found, total / 3);
  EXPECT_LT(found, total);
  EXPECT_GT(multi_bend, 300);  // paths that bend at two corners or more, not just straight lines
}

TEST(Visibility, ReproducesTheAnyAngleOptima) {
  auto planner = Registry::builtin().create("visibility");
  int checked = 0;
  for (const char* file : {"arena.map", "den312d.map", "AR0408SR.map"}) {
    Scene scene;
    scene.map = load_map(anyangle_dir() + file);
    const Scenario scen = load_scen(anyangle_dir() + file + ".scen", /*corners=*/true);
    const CornerGrid grid(scene.map, 0);
    for (std::size_t i = 0; i < scen.problems.size(); ++i) {
      const ScenProblem& p = scen.problems[i];
      const PlanResult r = planner->plan(scene, query(p.start_x, p.start_y, p.goal_x, p.goal_y));
      ASSERT_TRUE(r.found) << file << " problem " << i;
      EXPECT_NEAR(r.length, p.optimal, scen.tolerance(i)) << file << " problem " << i;
      const auto pts = path_points(r);
      std::string why;
      EXPECT_TRUE(pts.empty() || grid.path_valid(pts, &why)) << file << " " << i << ": " << why;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 300);
}

TEST(Visibility, CachesTheGraphPerMapVersion) {
  Scene scene;
  scene.map = load_map(anyangle_dir() + "den312d.map");
  VisibilityGraphSearch vg;
  const Query q = query(39, 38, 39, 41);
  const PlanResult a = vg.run(scene.map, q, {});
  ASSERT_TRUE(a.found);
  EXPECT_GT(a.prepare_ms, 0.0);
  EXPECT_GT(vg.convex_count(), 100u);
  EXPECT_GT(vg.edge_count(), vg.convex_count());
  bool has_stats = false;
  for (auto& [k, v] : a.stats) has_stats |= k == "graph memory bytes" && v > 0;
  EXPECT_TRUE(has_stats);
  const std::size_t edges = vg.edge_count();
  const PlanResult b = vg.run(scene.map, q, {});
  EXPECT_EQ(b.prepare_ms, 0.0);  // cached
  EXPECT_EQ(b.length, a.length);
  // An edit bumps the version: the graph is built again and answers for the new map.
  scene.map.set(38, 39, 4);  // both cells beside the segment: no running between them
  scene.map.set(39, 39, 4);
  const PlanResult c = vg.run(scene.map, q, {});
  EXPECT_GT(c.prepare_ms, 0.0);
  EXPECT_NE(vg.edge_count(), edges);
  ASSERT_TRUE(c.found);
  EXPECT_GT(c.length, a.length);
}

TEST(Visibility, RefusesGraphsOverItsLimits) {
  // Scattered single obstacles: four convex corners each, far more than the limit.
  Scene scene;
  scene.map = GridMap(420, 420);
  for (int y = 1; y < 419; y += 2)
    for (int x = 1; x < 419; x += 2) scene.map.set(x, y, 4);
  auto planner = Registry::builtin().create("visibility");
  const PlanResult r = planner->plan(scene, query(0, 0, 10, 10));
  EXPECT_FALSE(r.found);
  EXPECT_FALSE(r.bad_query);
  EXPECT_NE(r.message.find("convex corners"), std::string::npos) << r.message;
}

// What a watcher sees: the corner space, the graph's phases, the start's and goal's visibility
// edges as accepted segments, the path; watching changes nothing.
class Watcher : public SearchObserver {
 public:
  bool corners = false;
  int segments = 0, failed = 0, paths = 0;
  std::vector<std::string> phases;
  void space(const NodeSpace& s) override { corners |= s.kind == NodeSpace::Kind::Corners; }
  void phase(std::string_view name) override { phases.emplace_back(name); }
  void test(const Shape& s, bool ok) override {
    segments += s.kind == Shape::Kind::Segment;
    failed += !ok;
  }
  void path(std::span<const PathPiece>) override { ++paths; }
};

TEST(Visibility, Watched) {
  Scene scene;
  scene.map = load_map(anyangle_dir() + "arena.map");
  auto planner = Registry::builtin().create("visibility");
  Watcher w;
  RunContext ctx;
  ctx.observer = &w;
  const PlanResult r = planner->plan(scene, query(3, 3, 45, 40), ctx);
  const PlanResult u = planner->plan(scene, query(3, 3, 45, 40));
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.length, u.length);
  EXPECT_EQ(r.expanded, u.expanded);
  EXPECT_TRUE(w.corners);
  EXPECT_GT(w.segments, 2);
  EXPECT_EQ(w.failed, 0);
  EXPECT_EQ(w.paths, 1);
  const std::vector<std::string> want = {"visibility graph", "goal connections", "search"};
  EXPECT_EQ(w.phases, want);
}

TEST(Visibility, ScenCornersMatchesEveryOptimum) {
  const std::string scen = anyangle_dir() + "den312d.map.scen";
  const auto r = test::run_cli("scen '" + scen + "' --coordinates corners --planner visibility --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"not_optimal\": 0"), std::string::npos) << r.out.substr(0, 2000);
  EXPECT_NE(r.out.find("\"exact_planner\": true"), std::string::npos);
}

}  // namespace
}  // namespace pl
