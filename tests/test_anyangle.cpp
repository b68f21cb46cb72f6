// Any-angle planners (planners/anyangle.*): corner-astar, theta, lazy-theta.
//  - corner A* lengths equal an independent Dijkstra on the corner graph (random maps);
//  - on small random maps, every planner's path is valid (line of sight checked independently)
//    and never shorter than the exact any-angle optimum, computed here by a brute-force
//    visibility graph over every corner;
//  - on the three any-angle scenario files (../shared/anyangle), Theta* and Lazy Theta* never
//    beat the optimum, never break line of sight, and stay within a small mean gap;
//  - cell-centre queries, the empty path, what a watcher sees, and the CLI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "anyangle_test_util.hpp"
#include "cli_util.hpp"
#include "core/error.hpp"
#include "core/io.hpp"
#include "core/line_of_sight.hpp"
#include "core/scene.hpp"
#include "planners/planner.hpp"

namespace pl {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Blocked {
  const GridMap& m;
  CapabilityMask cap;
  bool operator()(int x, int y) const { return !m.passable(x, y, cap); }
};

// Independent: Dijkstra on the 8-connected corner graph, moves judged from the rules directly
// (straight: an open cell beside the edge; diagonal: the crossed cell open), no path through a
// corner where two blocked cells touch diagonally (it may be the start or the goal).
double corner_dijkstra(const GridMap& m, int sx, int sy, int gx, int gy) {
  const Blocked b{m, m.palette().movingai_default_capability()};
  const int w1 = m.width() + 1, h1 = m.height() + 1;
  std::vector<double> dist(std::size_t(w1) * std::size_t(h1), kInf);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  dist[std::size_t(sy * w1 + sx)] = 0;
  pq.push({0, sy * w1 + sx});
  while (!pq.empty()) {
    auto [d, c] = pq.top();
    pq.pop();
    if (d > dist[std::size_t(c)]) continue;
    const int x = c % w1, y = c / w1;
    if (x == gx && y == gy) return d;
    const bool pinch = (b(x - 1, y - 1) && b(x, y)) || (b(x, y - 1) && b(x - 1, y));
    if (pinch && !(x == sx && y == sy)) continue;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (!dx && !dy) continue;
        const int nx = x + dx, ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w1 || ny >= h1) continue;
        bool ok;
        if (dx && dy) ok = !b(std::min(x, nx), std::min(y, ny));
        else if (dy == 0) ok = !(b(std::min(x, nx), y - 1) && b(std::min(x, nx), y));
        else ok = !(b(x - 1, std::min(y, ny)) && b(x, std::min(y, ny)));
        if (!ok) continue;
        const double nd = d + ((dx && dy) ? std::sqrt(2.0) : 1.0);
        if (nd < dist[std::size_t(ny * w1 + nx)]) {
          dist[std::size_t(ny * w1 + nx)] = nd;
          pq.push({nd, ny * w1 + nx});
        }
      }
  }
  return kInf;
}

// The exact any-angle optimum on a small map: Dijkstra over the visibility graph of every
// corner (shortest any-angle paths bend only at corners), no bend at a pinch corner.
double exact_anyangle(const CornerGrid& g, int sx, int sy, int gx, int gy) {
  const int w1 = g.width() + 1, n = w1 * (g.height() + 1);
  std::vector<double> dist(std::size_t(n), kInf);
  std::vector<char> done(std::size_t(n), 0);
  dist[std::size_t(sy * w1 + sx)] = 0;
  for (;;) {
    int c = -1;
    for (int i = 0; i < n; ++i)
      if (!done[std::size_t(i)] && dist[std::size_t(i)] < kInf && (c < 0 || dist[std::size_t(i)] < dist[std::size_t(c)])) c = i;
    if (c < 0) return kInf;
    done[std::size_t(c)] = 1;
    const int x = c % w1, y = c / w1;
    if (x == gx && y == gy) return dist[std::size_t(c)];
    if (g.pinch(x, y) && !(x == sx && y == sy)) continue;
    for (int i = 0; i < n; ++i) {
      if (done[std::size_t(i)]) continue;
      const int nx = i % w1, ny = i / w1;
      if (!g.visible(x, y, nx, ny)) continue;
      dist[std::size_t(i)] = std::min(dist[std::size_t(i)], dist[std::size_t(c)] + std::hypot(nx - x, ny - y));
    }
  }
}

Query corner_query(int sx, int sy, int gx, int gy) {
  Query q;
  q.start = {double(sx), double(sy), 0};
  q.goal = {double(gx), double(gy), 0};
  return q;
}

TEST(AnyAngle, CornerAStarEqualsCornerGraphDijkstra) {
  std::mt19937 rng(2024);
  auto planner = Registry::builtin().create("corner-astar");
  int found = 0, total = 0;
  for (int map = 0; map < 400; ++map) {
    Scene scene;
    const int w = 2 + int(rng() % 20), h = 2 + int(rng() % 20);
    scene.map = random_map(rng, w, h, 10 + int(rng() % 35));
    const CornerGrid grid(scene.map, 0);
    for (int k = 0; k < 10; ++k) {
      const int sx = int(rng() % unsigned(w + 1)), sy = int(rng() % unsigned(h + 1));
      const int gx = int(rng() % unsigned(w + 1)), gy = int(rng() % unsigned(h + 1));
      const double want = corner_dijkstra(scene.map, sx, sy, gx, gy);
      const PlanResult r = planner->plan(scene, corner_query(sx, sy, gx, gy));
      ++total;
      ASSERT_EQ(r.found, want < kInf) << "map " << map << " (" << sx << "," << sy << ") -> (" << gx << "," << gy << ")";
      if (!r.found) continue;
      ++found;
      ASSERT_NEAR(r.length, want, 1e-9);
      ASSERT_NEAR(pieces_length(r), r.length, 1e-9);
      std::string why;
      const auto pts = path_points(r);
      ASSERT_TRUE(pts.empty() || grid.path_valid(pts, &why)) << why;
    }
  }
  EXPECT_GT(found, total / 3);
  EXPECT_LT(found, total);
}

TEST(AnyAngle, NeverShorterThanTheExactOptimumOnSmallMaps) {
  std::mt19937 rng(77);
  const char* names[3] = {"corner-astar", "theta", "lazy-theta"};
  std::unique_ptr<Planner> planners[3];
  for (int i = 0; i < 3; ++i) planners[i] = Registry::builtin().create(names[i]);
  double gap_sum[3] = {0, 0, 0};
  int solved = 0;
  for (int map = 0; map < 150; ++map) {
    Scene scene;
    const int w = 3 + int(rng() % 9), h = 3 + int(rng() % 9);
    scene.map = random_map(rng, w, h, 10 + int(rng() % 30));
    const CornerGrid grid(scene.map, 0);
    for (int k = 0; k < 8; ++k) {
      const int sx = int(rng() % unsigned(w + 1)), sy = int(rng() % unsigned(h + 1));
      const int gx = int(rng() % unsigned(w + 1)), gy = int(rng() % unsigned(h + 1));
      const double opt = exact_anyangle(grid, sx, sy, gx, gy);
      for (int i = 0; i < 3; ++i) {
        const PlanResult r = planners[i]->plan(scene, corner_query(sx, sy, gx, gy));
        ASSERT_EQ(r.found, opt < kInf) << names[i] << " map " << map;
        if (!r.found) continue;
        ASSERT_GE(r.length, opt - 1e-9) << names[i] << " map " << map << " (" << sx << "," << sy
                                        << ") -> (" << gx << "," << gy << ")";
        ASSERT_NEAR(pieces_length(r), r.length, 1e-9) << names[i];
        const auto pts = path_points(r);
        std::string why;
        ASSERT_TRUE(pts.empty() || grid.path_valid(pts, &why)) << names[i] << ": " << why;
        if (!pts.empty()) {
          ASSERT_TRUE(pts.front() == (Vec2{double(sx), double(sy)}));
          ASSERT_TRUE(pts.back() == (Vec2{double(gx), double(gy)}));
        }
        if (opt > 0) gap_sum[i] += r.length / opt - 1;
      }
      if (opt < kInf) ++solved;
    }
  }
  ASSERT_GT(solved, 300);
  // Theta* and Lazy Theta* come much closer to the optimum than the corner graph does.
  for (int i = 1; i < 3; ++i) EXPECT_LT(gap_sum[i], 0.5 * gap_sum[0]) << names[i];
}

struct ScenStats {
  double mean_gap = 0, max_gap = 0;
  int problems = 0;
};

ScenStats run_anyangle_scenarios(const std::string& name) {
  ScenStats st;
  auto planner = Registry::builtin().create(name);
  for (const char* file : {"arena.map", "den312d.map", "AR0408SR.map"}) {
    Scene scene;
    scene.map = load_map(anyangle_dir() + file);
    const Scenario scen = load_scen(anyangle_dir() + file + ".scen", /*corners=*/true);
    const CornerGrid grid(scene.map, 0);
    for (std::size_t i = 0; i < scen.problems.size(); ++i) {
      const ScenProblem& p = scen.problems[i];
      const PlanResult r = planner->plan(scene, corner_query(p.start_x, p.start_y, p.goal_x, p.goal_y));
      EXPECT_TRUE(r.found) << name << " " << file << " problem " << i;
      if (!r.found) continue;
      EXPECT_GE(r.length, p.optimal - scen.tolerance(i)) << name << " " << file << " problem " << i;
      EXPECT_NEAR(pieces_length(r), r.length, 1e-9);
      const auto pts = path_points(r);
      std::string why;
      EXPECT_TRUE(pts.empty() || grid.path_valid(pts, &why)) << name << " " << file << " problem " << i << ": " << why;
      if (!pts.empty()) {
        EXPECT_TRUE(pts.front() == (Vec2{double(p.start_x), double(p.start_y)}));
        EXPECT_TRUE(pts.back() == (Vec2{double(p.goal_x), double(p.goal_y)}));
      }
      const double gap = p.optimal > 0 ? r.length / p.optimal - 1 : 0;
      st.mean_gap += gap;
      st.max_gap = std::max(st.max_gap, gap);
      ++st.problems;
    }
  }
  if (st.problems) st.mean_gap /= st.problems;
  return st;
}

// The paper (Uras & Koenig 2015) and Nash et al. report Theta* within about 1% of the optimum on
// game maps; on these three maps both stay near 0.05% (printed below). The bound, 0.5%, holds
// with a tenfold margin; corner A*, which takes no shortcuts, is about 5% over and fails it.
constexpr double kMeanGapBound = 0.005;

TEST(AnyAngle, ThetaOnTheAnyAngleScenarios) {
  const ScenStats st = run_anyangle_scenarios("theta");
  EXPECT_EQ(st.problems, 300);
  EXPECT_LT(st.mean_gap, kMeanGapBound);
  std::printf("theta: mean %.4f%%, max %.4f%% over the optimum on %d problems\n",
              100 * st.mean_gap, 100 * st.max_gap, st.problems);
}

TEST(AnyAngle, LazyThetaOnTheAnyAngleScenarios) {
  const ScenStats st = run_anyangle_scenarios("lazy-theta");
  EXPECT_EQ(st.problems, 300);
  EXPECT_LT(st.mean_gap, kMeanGapBound);
  std::printf("lazy-theta: mean %.4f%%, max %.4f%% over the optimum on %d problems\n",
              100 * st.mean_gap, 100 * st.max_gap, st.problems);
}

TEST(AnyAngle, CornerAStarFailsTheThetaBound) {
  const ScenStats st = run_anyangle_scenarios("corner-astar");
  EXPECT_EQ(st.problems, 300);
  EXPECT_GT(st.mean_gap, kMeanGapBound);  // the bound above tells shortcuts from none
  std::printf("corner-astar: mean %.4f%%, max %.4f%% over the optimum\n", 100 * st.mean_gap,
              100 * st.max_gap);
}

TEST(AnyAngle, CellCentresAndTheEmptyPath) {
  Scene scene;
  scene.map = GridMap(10, 10);
  for (const char* name : {"corner-astar", "theta", "lazy-theta"}) {
    auto planner = Registry::builtin().create(name);
    Query q;
    q.start = {0.5, 0.5, 0};
    q.goal = {9.5, 9.5, 0};
    const PlanResult r = planner->plan(scene, q);
    ASSERT_TRUE(r.found) << name;
    EXPECT_NEAR(r.length, 9 * std::sqrt(2.0), 1e-9) << name;  // via corners (1,1) and (9,9)
    ASSERT_FALSE(r.points.empty());
    EXPECT_EQ(r.points.front().x, 0.5);
    EXPECT_EQ(r.points.back().y, 9.5);
    // On an open map Theta* goes straight from the first corner to the last.
    if (std::string(name) != "corner-astar") {
      EXPECT_EQ(r.pieces.size(), 3u) << name;
    }
    // Centre to centre in one cell, and to a corner of its own cell.
    q.goal = {0.25, 0.75, 0};
    EXPECT_NEAR(planner->plan(scene, q).length, std::hypot(0.25, 0.25), 1e-12) << name;
    q.goal = {1, 1, 0};
    EXPECT_NEAR(planner->plan(scene, q).length, std::sqrt(0.5), 1e-12) << name;
    // The empty path.
    const PlanResult e = planner->plan(scene, corner_query(3, 4, 3, 4));
    EXPECT_TRUE(e.found);
    EXPECT_EQ(e.length, 0.0);
    EXPECT_TRUE(e.pieces.empty());
    // Outside the corners: a bad query; a centre in a blocked cell: no path.
    EXPECT_TRUE(planner->plan(scene, corner_query(0, 0, 11, 3)).bad_query) << name;
    Scene walled = scene;
    walled.map.set(5, 5, 4);
    q.goal = {5.5, 5.5, 0};
    const PlanResult b = planner->plan(walled, q);
    EXPECT_FALSE(b.found);
    EXPECT_FALSE(b.bad_query);
  }
}

// What a watcher sees: the corner space, line-of-sight tests passed and failed (Theta*: one per
// shortcut tried; Lazy Theta*: one per node closed with a grandparent).
class Watcher : public SearchObserver {
 public:
  bool corners = false;
  int passed = 0, failed = 0, segments = 0, opened = 0, paths = 0;
  void space(const NodeSpace& s) override { corners |= s.kind == NodeSpace::Kind::Corners; }
  void open(const NodeDesc&, std::uint32_t, double, double) override { ++opened; }
  void test(const Shape& s, bool ok) override {
    ++(ok ? passed : failed);
    segments += s.kind == Shape::Kind::Segment;
  }
  void path(std::span<const PathPiece>) override { ++paths; }
};

TEST(AnyAngle, ReportsTestsThroughTheHook) {
  Scene scene;
  scene.map = load_map(anyangle_dir() + "arena.map");
  const Scenario scen = load_scen(anyangle_dir() + "arena.map.scen", true);
  // The longest problem: shortcuts both found and refused.
  const ScenProblem& p = *std::max_element(
      scen.problems.begin(), scen.problems.end(),
      [](const ScenProblem& a, const ScenProblem& b) { return a.optimal < b.optimal; });
  for (const char* name : {"theta", "lazy-theta"}) {
    auto planner = Registry::builtin().create(name);
    Watcher w;
    RunContext ctx;
    ctx.observer = &w;
    const PlanResult r = planner->plan(scene, corner_query(p.start_x, p.start_y, p.goal_x, p.goal_y), ctx);
    const PlanResult u = planner->plan(scene, corner_query(p.start_x, p.start_y, p.goal_x, p.goal_y));
    ASSERT_TRUE(r.found);
    EXPECT_EQ(r.length, u.length) << name;  // watching changes nothing
    EXPECT_EQ(r.expanded, u.expanded) << name;
    EXPECT_TRUE(w.corners);
    EXPECT_GT(w.passed, 0) << name;
    EXPECT_GT(w.failed, 0) << name;
    EXPECT_EQ(w.segments, w.passed + w.failed);
    EXPECT_EQ(w.paths, 1);
    double tests = -1;
    for (auto& [k, v] : r.stats) {
      if (k == "line-of-sight tests") tests = v;
    }
    EXPECT_EQ(tests, double(w.passed + w.failed)) << name;
  }
}

TEST(AnyAngleCli, CornerScenariosReachTheFarBorder) {
  const std::string text = "version 1\n0\tarena.map\t49\t49\t49\t49\t0\t3\t1.0\n";
  EXPECT_THROW(parse_scen(text, "cells.scen"), InputError);  // x = width is no cell
  const Scenario s = parse_scen(text, "corners.scen", /*corners=*/true);
  EXPECT_EQ(s.problems[0].start_x, 49);
  GridMap m(49, 49);
  EXPECT_NO_THROW(check_scen_against_map(s, m, "corners.scen", true));
  EXPECT_THROW(check_scen_against_map(s, m, "corners.scen", false), InputError);
}

TEST(AnyAngleCli, ScenCorners) {
  const std::string scen = anyangle_dir() + "arena.map.scen";
  for (const char* name : {"theta", "lazy-theta", "corner-astar"}) {
    const auto r = test::run_cli("scen '" + scen + "' --coordinates corners --planner " + name + " --json");
    ASSERT_EQ(r.code, 0) << name << r.err;
    EXPECT_NE(r.out.find("\"line_of_sight_broken\": 0"), std::string::npos) << r.out.substr(0, 2000);
    EXPECT_NE(r.out.find("\"shorter_than_optimal\": 0"), std::string::npos);
    EXPECT_NE(r.out.find("\"mean_percent_over\""), std::string::npos);
  }
  // A grid planner's cell-centre path is no corner path: an error, exit 1.
  const auto g = test::run_cli("scen '" + scen + "' --coordinates corners --planner astar --limit 3");
  EXPECT_EQ(g.code, 1) << g.out << g.err;
  EXPECT_NE(g.err.find("corner"), std::string::npos) << g.err;
  // A corner outside the map: bad input naming the file and line.
  const std::string bad = (std::filesystem::temp_directory_path() / "pathlab_bad_corners.scen").string();
  {
    std::ofstream f(bad);
    f << "version 1\n0\tarena.map\t49\t49\t0\t0\t50\t3\t1.0\n";
  }
  const auto b = test::run_cli("scen '" + bad + "' --map '" + anyangle_dir() +
                               "arena.map' --coordinates corners --planner theta");
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.err.find(":2:"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("goal x"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("0..49"), std::string::npos) << b.err;
  std::filesystem::remove(bad);
  const auto c = test::run_cli("scen '" + scen + "' --coordinates diagonal --planner theta");
  EXPECT_EQ(c.code, 2);
}

}  // namespace
}  // namespace pl
