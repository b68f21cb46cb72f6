// Subgoal graphs (planners/subgoal*): the optimal length of the scenario problems in
// ../shared/data at every level count (every kEvery-th problem here; the CLI runs them all), the
// same lengths and reachability as A* on random maps, grid paths that are legal 8-connected
// moves; the any-angle variants never shorter than the exact any-angle optimum and never
// breaking line of sight (CornerGrid::path_valid); the graph built once per map version; the
// graph, partitioning edges and query subgraph reported through the hook.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <bit>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <algorithm>
#include <limits>
#include <map>
#include <random>
#include <ostream>
#include <string>

#include "anyangle_test_util.hpp"
#include "cli_util.hpp"
#include "core/io.hpp"
#include "core/line_of_sight.hpp"
#include "core/scene.hpp"
#include "planners/grid_world.hpp"
#include "planners/planner.hpp"
#include "planners/subgoal_graph.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

#ifdef PATHLAB_SANITIZED
constexpr std::size_t kEvery = 40;
#else
constexpr std::size_t kEvery = 7;
#endif
constexpr double kInf = std::numeric_limits<double>::infinity();

// Every piece of a grid path is a straight or diagonal run between cell centres through free
// cells, no corner cut.
void expect_grid_path(const GridMap& map, const PlanResult& r, const std::string& what) {
  const auto pts = path_points(r);
  const CapabilityMask cap = map.palette().movingai_default_capability();
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const double dx = pts[i].x - pts[i - 1].x, dy = pts[i].y - pts[i - 1].y;
    ASSERT_TRUE(dx == 0 || dy == 0 || std::abs(dx) == std::abs(dy)) << what;
    const int n = int(std::max(std::abs(dx), std::abs(dy)));
    const int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    int x = int(pts[i - 1].x), y = int(pts[i - 1].y);
    for (int k = 0; k < n; ++k) {
      ASSERT_TRUE(map.passable(x + sx, y + sy, cap)) << what;
      if (sx && sy) {
        ASSERT_TRUE(map.passable(x + sx, y, cap) && map.passable(x, y + sy, cap)) << what << " cuts a corner";
      }
      x += sx, y += sy;
    }
  }
}

struct ScenCase {
  std::string file, levels;
};
// How gtest and ctest name a case in their output (instead of its bytes).
void PrintTo(const ScenCase& c, std::ostream* os) { *os << c.file << " at levels=" << c.levels; }

class SubgoalScenarioFiles : public ::testing::TestWithParam<ScenCase> {};

TEST_P(SubgoalScenarioFiles, ReproducesTheOptimalLengths) {
  const auto& [file, levels] = GetParam();
  const Scenario scen = load_scen(file);
  Scene scene;
  scene.map = load_map(find_scen_map(scen, file));
  auto planner = Registry::builtin().create("subgoal", {{"levels", levels}});
  std::size_t checked = 0;
  for (std::size_t i = 0; i < scen.problems.size(); i += kEvery) {
    const ScenProblem& p = scen.problems[i];
    Query q;
    q.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
    q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
    const PlanResult r = planner->plan(scene, q);
    ASSERT_TRUE(r.found) << file << " problem " << i;
    ASSERT_NEAR(r.length, p.optimal, scen.tolerance(i)) << file << " problem " << i;
    ASSERT_NEAR(pieces_length(r), r.length, 1e-6 * std::max(1.0, r.length));
    const auto pts = path_points(r);
    if (!pts.empty()) {
      ASSERT_TRUE(pts.front() == (Vec2{p.start_x + 0.5, p.start_y + 0.5}));
      ASSERT_TRUE(pts.back() == (Vec2{p.goal_x + 0.5, p.goal_y + 0.5}));
    }
    if (i % (kEvery * 8) == 0) expect_grid_path(scene.map, r, file + " problem " + std::to_string(i));
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

std::vector<ScenCase> scen_cases() {
  std::vector<ScenCase> out;
  for (const std::string& f : test::all_scen_files())
    for (const char* l : {"1", "2", "n"}) out.push_back({f, l});
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, SubgoalScenarioFiles, ::testing::ValuesIn(scen_cases()),
                         [](const auto& pinfo) {
                           std::string n = std::filesystem::path(pinfo.param.file).stem().stem().string() +
                                           "_levels_" + pinfo.param.levels;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(Subgoal, SameLengthsAsAStarOnRandomMaps) {
  std::mt19937 rng(12);
  auto astar = Registry::builtin().create("astar");
  std::unique_ptr<Planner> sg[3] = {Registry::builtin().create("subgoal", {{"levels", "1"}}),
                                    Registry::builtin().create("subgoal", {{"levels", "2"}}),
                                    Registry::builtin().create("subgoal", {{"levels", "n"}})};
  int found = 0, total = 0;
  for (int map = 0; map < 250; ++map) {
    Scene scene;
    const int w = 2 + int(rng() % 40), h = 2 + int(rng() % 40);
    const double pct = double(rng() % 45) / 100.0;
    scene.map = test::random_map(rng, w, h, {0, 4}, {1.0 - pct, pct});
    for (int k = 0; k < 8; ++k) {
      Query q;
      q.start = {int(rng() % unsigned(w)) + 0.5, int(rng() % unsigned(h)) + 0.5, 0};
      q.goal = {int(rng() % unsigned(w)) + 0.5, int(rng() % unsigned(h)) + 0.5, 0};
      const PlanResult a = astar->plan(scene, q);
      ++total;
      found += a.found ? 1 : 0;
      for (int l = 0; l < 3; ++l) {
        const PlanResult r = sg[l]->plan(scene, q);
        ASSERT_EQ(r.found, a.found) << "map " << map << " query " << k << " level variant " << l;
        if (!a.found) continue;
        ASSERT_NEAR(r.length, a.length, 1e-9) << "map " << map << " query " << k << " level variant " << l;
        expect_grid_path(scene.map, r, "map " + std::to_string(map));
      }
    }
  }
  EXPECT_GT(found, total / 3);
  EXPECT_LT(found, total);
}

// The exact any-angle optimum on a small map: Dijkstra over the visibility graph of every corner
// (shortest any-angle paths bend only at corners), no bend at a pinch corner.
double exact_anyangle(const CornerGrid& g, int sx, int sy, int gx, int gy) {
  const int w1 = g.width() + 1, n = w1 * (g.height() + 1);
  std::vector<double> dist(std::size_t(n), kInf);
  std::vector<char> done(std::size_t(n), 0);
  dist[std::size_t(sy * w1 + sx)] = 0;
  for (;;) {
    int c = -1;
    for (int i = 0; i < n; ++i)
      if (!done[std::size_t(i)] && dist[std::size_t(i)] < kInf &&
          (c < 0 || dist[std::size_t(i)] < dist[std::size_t(c)]))
        c = i;
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

TEST(Subgoal, AnyAngleNeverShorterThanExactAndKeepsLineOfSight) {
  std::mt19937 rng(91);
  struct Variant {
    const char* name;
    std::map<std::string, std::string> params;
  };
  const Variant variants[] = {
      {"astar S_1", {{"levels", "1"}, {"anyangle", "true"}}},
      {"astar S_N", {{"levels", "n"}, {"anyangle", "true"}}},
      {"theta S_1", {{"levels", "1"}, {"search", "theta"}}},
      {"theta S_2", {{"levels", "2"}, {"search", "theta"}}},
      {"theta S_N", {{"levels", "n"}, {"search", "theta"}}},
  };
  constexpr int kV = 5;
  std::unique_ptr<Planner> planners[kV];
  for (int i = 0; i < kV; ++i) planners[i] = Registry::builtin().create("subgoal", variants[i].params);
  double gap[kV] = {};
  int solved = 0;
  for (int map = 0; map < 400; ++map) {
    Scene scene;
    const int w = 3 + int(rng() % 10), h = 3 + int(rng() % 10);
    const double pct = double(10 + rng() % 30) / 100.0;
    scene.map = test::random_map(rng, w, h, {0, 4}, {1.0 - pct, pct});
    const CornerGrid grid(scene.map, 0);
    for (int k = 0; k < 8; ++k) {
      const int sx = int(rng() % unsigned(w + 1)), sy = int(rng() % unsigned(h + 1));
      const int gx = int(rng() % unsigned(w + 1)), gy = int(rng() % unsigned(h + 1));
      const double opt = exact_anyangle(grid, sx, sy, gx, gy);
      Query q;
      q.start = {double(sx), double(sy), 0};
      q.goal = {double(gx), double(gy), 0};
      for (int i = 0; i < kV; ++i) {
        const PlanResult r = planners[i]->plan(scene, q);
        const std::string what = std::string(variants[i].name) + " map " + std::to_string(map) + " (" +
                                 std::to_string(sx) + "," + std::to_string(sy) + ") -> (" +
                                 std::to_string(gx) + "," + std::to_string(gy) + ")";
        // A corner with no open cell around it is refused as an endpoint; any other query is
        // answered exactly when a path exists.
        const bool usable = !(grid.blocked(sx - 1, sy - 1) && grid.blocked(sx, sy - 1) &&
                              grid.blocked(sx - 1, sy) && grid.blocked(sx, sy)) &&
                            !(grid.blocked(gx - 1, gy - 1) && grid.blocked(gx, gy - 1) &&
                              grid.blocked(gx - 1, gy) && grid.blocked(gx, gy));
        if (usable) {
          std::string rows;
          for (int yy = 0; yy < h; ++yy) {
            for (int xx = 0; xx < w; ++xx) rows += grid.blocked(xx, yy) ? '#' : '.';
            rows += '\n';
          }
          ASSERT_EQ(r.found, opt < kInf) << what << "\n" << rows;
        }
        if (!r.found) continue;
        ASSERT_GE(r.length, opt - 1e-9) << what;
        ASSERT_NEAR(pieces_length(r), r.length, 1e-9) << what;
        const auto pts = path_points(r);
        std::string why;
        ASSERT_TRUE(pts.empty() || grid.path_valid(pts, &why)) << what << ": " << why;
        if (!pts.empty()) {
          ASSERT_TRUE(pts.front() == (Vec2{double(sx), double(sy)})) << what;
          ASSERT_TRUE(pts.back() == (Vec2{double(gx), double(gy)})) << what;
        }
        if (opt > 0) gap[i] += r.length / opt - 1;
      }
      if (opt < kInf && opt > 0) ++solved;
    }
  }
  ASSERT_GT(solved, 800);
  // Theta* on the graph closes most of A*-on-the-graph's gap (paper, Table 1).
  EXPECT_LT(gap[4], gap[1]) << "theta S_N " << gap[4] / solved << " astar S_N " << gap[1] / solved;
  EXPECT_LT(gap[4] / solved, 0.01);
}


// The competition's any-angle scenarios (corners, Euclidean optima): never below the optimum,
// every path visible, Theta* on S_N within 1% on average.
TEST(Subgoal, AnyAngleScenarios) {
  for (const char* search : {"astar", "theta"}) {
    auto planner = Registry::builtin().create("subgoal", {{"levels", "n"}, {"search", search}, {"anyangle", "true"}});
    double gap = 0;
    int n = 0;
    for (const char* file : {"arena.map", "den312d.map", "AR0408SR.map"}) {
      const std::string dir = std::string(PATHLAB_SHARED_DIR) + "/anyangle/";
      Scene scene;
      scene.map = load_map(dir + file);
      const Scenario scen = load_scen(dir + file + ".scen", /*corners=*/true);
      const CornerGrid grid(scene.map, 0);
      for (std::size_t i = 0; i < scen.problems.size(); ++i) {
        const ScenProblem& p = scen.problems[i];
        Query q;
        q.start = {double(p.start_x), double(p.start_y), 0};
        q.goal = {double(p.goal_x), double(p.goal_y), 0};
        const PlanResult r = planner->plan(scene, q);
        ASSERT_TRUE(r.found) << search << " " << file << " problem " << i;
        ASSERT_GE(r.length, p.optimal - scen.tolerance(i)) << search << " " << file << " problem " << i;
        const auto pts = path_points(r);
        std::string why;
        ASSERT_TRUE(pts.empty() || grid.path_valid(pts, &why)) << search << " " << file << " " << i << ": " << why;
        if (p.optimal > 0) gap += r.length / p.optimal - 1;
        ++n;
      }
    }
    ASSERT_GT(n, 200);
    if (std::string(search) == "theta") EXPECT_LT(gap / n, 0.01);
    else EXPECT_LT(gap / n, 0.08);
  }
}

TEST(Subgoal, EveryAnyAngleGraphEdgeHasLineOfSight) {
  std::mt19937 rng(5);
  for (int map = 0; map < 60; ++map) {
    const int w = 5 + int(rng() % 30), h = 5 + int(rng() % 30);
    std::vector<std::uint8_t> blocked(std::size_t(w * h));
    const unsigned pct = 10 + rng() % 30;
    for (auto& b : blocked) b = rng() % 100 < pct ? 1 : 0;
    for (const char* levels : {"1", "n"}) {
      SubgoalGraph g;
      g.build(SubgoalGraph::Form::Corners, w, h, blocked, levels[0] == '1' ? 1 : 0);
      const CornerGrid cg(w, h, blocked);
      for (std::uint32_t s = 0; s < g.size(); ++s) {
        ASSERT_FALSE(cg.pinch(g.x(s), g.y(s)));
        for (const auto& e : g.edges(s))
          ASSERT_TRUE(cg.visible(g.x(s), g.y(s), g.x(e.to), g.y(e.to))) << "map " << map;
      }
    }
  }
}

// A w x h mask with 10-40% of the cells blocked (nonzero), for the landmark tests.
std::vector<std::uint8_t> random_blocked(std::mt19937& rng, int w, int h) {
  std::vector<std::uint8_t> blocked(std::size_t(w * h));
  const unsigned pct = 10 + rng() % 30;
  for (auto& b : blocked) b = rng() % 100 < pct ? 1 : 0;
  return blocked;
}

// Distances from subgoal src over the graph's edges (infinity where unreached): a quadratic
// Dijkstra on purpose, independent of the graph's own queue.
std::vector<double> graph_distances(const SubgoalGraph& g, std::uint32_t src) {
  const std::uint32_t n = g.size();
  std::vector<double> d(n, std::numeric_limits<double>::infinity());
  std::vector<std::uint8_t> done(n, 0);
  d[src] = 0;
  for (;;) {
    std::uint32_t u = n;
    for (std::uint32_t v = 0; v < n; ++v)
      if (!done[v] && d[v] < std::numeric_limits<double>::infinity() && (u == n || d[v] < d[u])) u = v;
    if (u == n) break;
    done[u] = 1;
    for (const auto& e : g.edges(u)) d[e.to] = std::min(d[e.to], d[u] + e.w);
  }
  return d;
}

// Theta*'s heuristic takes |d(L, goal) - d(L, v)| from the landmark table: that is a bound on
// the graph distance only if the table holds graph distances. Against a Dijkstra written here
// over the S_N graph's edges: each landmark's column is the distances from one subgoal (its own
// 0), unreached subgoals hold kFar, and the bound never exceeds the distance between two
// subgoals.
TEST(Subgoal, LandmarkTableHoldsGraphDistances) {
  std::mt19937 rng(23);
  std::size_t pairs = 0;
  for (int map = 0; map < 40; ++map) {
    const int w = 6 + int(rng() % 30), h = 6 + int(rng() % 30);
    const std::vector<std::uint8_t> blocked = random_blocked(rng, w, h);
    SubgoalGraph g;
    g.build(SubgoalGraph::Form::Corners, w, h, blocked, 0);
    const std::uint32_t n = g.size();
    ASSERT_EQ(g.has_landmarks(), n > 0);
    if (n == 0) continue;
    for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) {
      std::uint32_t origin = n;
      for (std::uint32_t v = 0; v < n && origin == n; ++v)
        if (g.landmark_dist(v)[l] == 0.0f) origin = v;
      ASSERT_LT(origin, n) << "map " << map << " landmark " << l;
      const std::vector<double> d = graph_distances(g, origin);
      for (std::uint32_t v = 0; v < n; ++v) {
        const float t = g.landmark_dist(v)[l];
        if (d[v] == std::numeric_limits<double>::infinity())
          ASSERT_EQ(t, SubgoalGraph::kFar) << "map " << map;
        else
          ASSERT_NEAR(t, d[v], 1e-4 * (1 + d[v])) << "map " << map << " landmark " << l;
      }
    }
    for (int k = 0; k < 20; ++k) {
      const std::uint32_t a = std::uint32_t(rng() % n), b = std::uint32_t(rng() % n);
      const std::vector<double> d = graph_distances(g, a);
      if (d[b] == std::numeric_limits<double>::infinity()) continue;
      ++pairs;
      for (int l = 0; l < SubgoalGraph::kLandmarks; ++l)
        ASSERT_LE(std::fabs(g.landmark_dist(a)[l] - g.landmark_dist(b)[l]),
                  d[b] * (1 + 1e-5) + 1e-4)
            << "map " << map;
    }
  }
  EXPECT_GT(pairs, 300u);
}

// The cells form's landmark table (the bidirectional A*'s bound): per landmark the graph
// distances, to 1e-9, and for random pairs the bound max_L |d(L, a) - d(L, b)| never above the
// pair's graph distance (1e-9 slack: an inflated bound, even by 0.1%, fails here, since the bound
// is exact for every pair a landmark lies behind) and equal to it for some pairs. On S_1, S_2
// and S_N: the shortcuts of the levels must not change a distance.
TEST(Subgoal, CellLandmarkBoundNeverAboveTheGraphDistance) {
  std::mt19937 rng(31);
  std::size_t pairs = 0, tight = 0;
  for (int map = 0; map < 60; ++map) {
    const int w = 6 + int(rng() % 30), h = 6 + int(rng() % 30);
    const std::vector<std::uint8_t> blocked = random_blocked(rng, w, h);
    const int levels = map % 3 == 0 ? 1 : map % 3 == 1 ? 2 : 0;
    SubgoalGraph g;
    g.build(SubgoalGraph::Form::Cells, w, h, blocked, levels);
    const std::uint32_t n = g.size();
    ASSERT_FALSE(g.has_landmarks());  // the float table is the corners form's
    ASSERT_EQ(g.has_cell_landmarks(), n > 0);
    if (n == 0) continue;
    for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) {
      std::uint32_t origin = n;
      for (std::uint32_t v = 0; v < n && origin == n; ++v)
        if (g.cell_landmark_dist(v)[l] == 0.0) origin = v;
      ASSERT_LT(origin, n) << "map " << map << " landmark " << l;
      const std::vector<double> d = graph_distances(g, origin);
      for (std::uint32_t v = 0; v < n; ++v) {
        const double t = g.cell_landmark_dist(v)[l];
        if (d[v] == std::numeric_limits<double>::infinity())
          ASSERT_EQ(t, double(SubgoalGraph::kFar)) << "map " << map;
        else
          ASSERT_NEAR(t, d[v], 1e-9) << "map " << map << " landmark " << l;
      }
    }
    for (int k = 0; k < 20; ++k) {
      const std::uint32_t a = std::uint32_t(rng() % n), b = std::uint32_t(rng() % n);
      const std::vector<double> d = graph_distances(g, a);
      if (d[b] == std::numeric_limits<double>::infinity()) continue;
      ++pairs;
      double bound = 0;
      for (int l = 0; l < SubgoalGraph::kLandmarks; ++l)
        bound = std::max(bound, std::fabs(g.cell_landmark_dist(a)[l] - g.cell_landmark_dist(b)[l]));
      ASSERT_LE(bound, d[b] + 1e-9) << "map " << map << " pair " << a << ", " << b;
      if (d[b] > 0 && bound >= d[b] - 1e-9) ++tight;
    }
  }
  EXPECT_GT(pairs, 500u);
  EXPECT_GT(tight, pairs / 20);
}

// The planner connects endpoints to their direct-h-reachable subgoals without a line-of-sight
// test (Uras & Koenig 2015: the parallelogram of shortest grid paths is free, the segment lies
// in it). Every usable corner, pinch corners included, against every subgoal the programme
// gives it, on random maps from sparse to dense and on a game map.
TEST(Subgoal, DirectHReachableCornersSee) {
  std::mt19937 rng(17);
  std::size_t pairs = 0;
  auto check = [&](int w, int h, const std::vector<std::uint8_t>& blocked, const std::string& what) {
    SubgoalGraph g;
    g.build(SubgoalGraph::Form::Corners, w, h, blocked, 1);
    const CornerGrid cg(w, h, blocked);
    for (int y = 0; y <= h; ++y)
      for (int x = 0; x <= w; ++x) {
        if (!g.usable(x, y)) continue;
        g.direct_h_reachable(x, y, [&](std::uint32_t t, OctileCost) {
          ++pairs;
          ASSERT_TRUE(cg.visible(x, y, g.x(t), g.y(t)))
              << what << ": (" << x << "," << y << ") -> (" << g.x(t) << "," << g.y(t) << ")";
        });
      }
  };
  for (int map = 0; map < 300; ++map) {
    const int w = 3 + int(rng() % 25), h = 3 + int(rng() % 25);
    std::vector<std::uint8_t> blocked(std::size_t(w * h));
    const unsigned pct = 5 + rng() % 50;
    for (auto& b : blocked) b = rng() % 100 < pct ? 1 : 0;
    check(w, h, blocked, "random map " + std::to_string(map));
  }
  const GridMap game = load_map(std::string(PATHLAB_SHARED_DIR) + "/anyangle/den312d.map");
  std::vector<std::uint8_t> blocked(std::size_t(game.width()) * std::size_t(game.height()));
  const CapabilityMask cap = game.palette().movingai_default_capability();
  for (int y = 0; y < game.height(); ++y)
    for (int x = 0; x < game.width(); ++x)
      blocked[std::size_t(y) * std::size_t(game.width()) + std::size_t(x)] = game.passable(x, y, cap) ? 0 : 1;
  check(game.width(), game.height(), blocked, "den312d");
  EXPECT_GT(pairs, 100000u);
}

// The programme's diagonal walks read copies of the clearances laid out along the diagonals
// (SubgoalGraph::DiagStep). Against the programme written from the definitions alone (legal
// moves and subgoals through the public interface, every clear run walked out): the same
// subgoals with the same octile counts in the same order, from every usable vertex of random
// maps in both forms (odd sizes, rectangles both ways, so both diagonal orders' line starts
// are exercised), with and without skip masks.
TEST(Subgoal, ProgrammeWalksMatchTheDefinition) {
  std::mt19937 rng(41);
  std::size_t found = 0, diagonal = 0;
  static constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
  static constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  static constexpr int kCa[4] = {0, 2, 2, 0}, kCb[4] = {1, 1, 3, 3};
  struct Hit {
    std::uint32_t t, s, d;
    bool operator==(const Hit&) const = default;
  };
  for (int map = 0; map < 160; ++map) {
    const int w = 2 + int(rng() % 30), h = 2 + int(rng() % 30);
    std::vector<std::uint8_t> blocked(std::size_t(w * h));
    const unsigned pct = 3 + rng() % 45;
    for (auto& b : blocked) b = rng() % 100 < pct ? 1 : 0;
    const bool corners = map % 2 == 0;
    SubgoalGraph g;
    g.build(corners ? SubgoalGraph::Form::Corners : SubgoalGraph::Form::Cells, w, h, blocked,
            map % 3 == 0 ? 0 : 1);
    const CornerGrid& cg = g.corners();
    const auto cell_blocked = [&](int x, int y) {
      return x < 0 || y < 0 || x >= w || y >= h || blocked[std::size_t(y * w + x)] != 0;
    };
    const auto legal = [&](int x, int y, int d) {
      const int tx = x + kDx[d], ty = y + kDy[d];
      if (corners) return cg.in_corners(tx, ty) && cg.step_ok(x, y, kDx[d], kDy[d]) && !cg.pinch(tx, ty);
      return !cell_blocked(x, y) && !cell_blocked(tx, ty) && !cell_blocked(tx, y) && !cell_blocked(x, ty);
    };
    const auto sub = [&](int x, int y) { return g.subgoal_at(x, y); };
    const auto clear = [&](int x, int y, int c) {
      std::uint32_t n = 0;
      while (legal(x, y, c) && sub(x + kDx[c], y + kDy[c]) == kNoNode) x += kDx[c], y += kDy[c], ++n;
      return n;
    };
    // The subgoal a run of n moves along c from (x, y) ends at, else kNoNode.
    const auto run_end = [&](int x, int y, int c, std::uint32_t n) {
      const int ex = x + int(n) * kDx[c], ey = y + int(n) * kDy[c];
      return legal(ex, ey, c) ? sub(ex + kDx[c], ey + kDy[c]) : kNoNode;
    };
    for (int y = 0; y < g.vh(); ++y)
      for (int x = 0; x < g.vw(); ++x) {
        if (!g.usable(x, y)) continue;
        const unsigned skip = rng() % 3 == 0 ? unsigned(rng() % 256) : 0u;
        std::vector<Hit> want, got;
        std::uint32_t maxc[4];
        for (int c = 0; c < 4; ++c) {
          maxc[c] = clear(x, y, c);
          const std::uint32_t t = run_end(x, y, c, maxc[c]);
          if (!((skip >> c) & 1u) && t != kNoNode) want.push_back({t, maxc[c] + 1, 0});
        }
        for (int q = 0; q < 4; ++q) {
          if ((skip >> (4 + q)) & 1u) continue;
          const int d = 4 + q, a = kCa[q], b = kCb[q];
          std::uint32_t ma = maxc[a], mb = maxc[b], i = 0;
          for (int px = x, py = y; legal(px, py, d);) {
            px += kDx[d], py += kDy[d], ++i;
            if (sub(px, py) != kNoNode) {
              want.push_back({sub(px, py), 0, i});
              break;
            }
            for (const auto& [c, m] : {std::pair{a, &ma}, std::pair{b, &mb}}) {
              const std::uint32_t j = clear(px, py, c);
              if (j >= *m) continue;
              const std::uint32_t t = run_end(px, py, c, j);
              if (t != kNoNode) want.push_back({t, j + 1, i});
              *m = j;
            }
          }
        }
        g.direct_h_reachable(
            x, y, [&](std::uint32_t t, OctileCost oc) { got.push_back({t, oc.straight, oc.diagonal}); },
            skip);
        ASSERT_EQ(got.size(), want.size()) << "map " << map << " vertex " << x << "," << y;
        for (std::size_t k = 0; k < got.size(); ++k) {
          ASSERT_EQ(got[k], want[k]) << "map " << map << " vertex " << x << "," << y << " hit " << k;
          diagonal += got[k].d > 0 ? 1 : 0;
        }
        found += got.size();
      }
  }
  EXPECT_GT(found, 50000u);
  EXPECT_GT(diagonal, found / 4);
}

// A point inside a cell connects from the cell's four corners; each corner leaves out the
// routes toward another corner of the cell when that corner's leg is less than 1 longer
// (SubgoalGraph::cell_corner_skip). Per subgoal the shortest connection and the corner it leaves
// from must be exactly those of all four full programmes: at the cell's centre (the scenario
// queries), at random points inside the cell and at points next to a corner (where the legs
// differ by nearly 1 or more and the rule must keep the routes).
TEST(Subgoal, CellCornerSkipKeepsEveryShortestConnection) {
  std::mt19937 rng(29);
  std::size_t compared = 0, skipped_routes = 0;
  struct Best {
    double w;
    int corner;
  };
  for (int map = 0; map < 200; ++map) {
    const int w = 4 + int(rng() % 28), h = 4 + int(rng() % 28);
    std::vector<std::uint8_t> blocked(std::size_t(w * h));
    const unsigned pct = 5 + rng() % 40;
    for (auto& b : blocked) b = rng() % 100 < pct ? 1 : 0;
    SubgoalGraph g;
    g.build(SubgoalGraph::Form::Corners, w, h, blocked, map % 2 == 0 ? 0 : 1);
    for (int k = 0; k < 30; ++k) {
      const int cx = int(rng() % unsigned(w)), cy = int(rng() % unsigned(h));
      if (blocked[std::size_t(cy * w + cx)]) continue;
      const double fx = k % 3 == 0 ? 0.5 : k % 3 == 1 ? std::uniform_real_distribution<double>(0, 1)(rng)
                                                      : 0.02 * double(rng() % 3);
      const double fy = k % 3 == 0 ? 0.5 : k % 3 == 1 ? std::uniform_real_distribution<double>(0, 1)(rng)
                                                      : 0.02 * double(rng() % 3);
      const double px = cx + fx, py = cy + fy;
      double leg[4];
      for (int c = 0; c < 4; ++c) leg[c] = std::hypot(px - (cx + (c & 1)), py - (cy + (c >> 1)));
      auto connections = [&](bool skip) {
        std::map<std::uint32_t, Best> best;
        for (int c = 0; c < 4; ++c) {
          const int vx = cx + (c & 1), vy = cy + (c >> 1);
          EXPECT_TRUE(g.usable(vx, vy));
          auto add = [&](std::uint32_t t, double wt) {
            auto it = best.find(t);
            if (it == best.end())
              best[t] = {wt, c};
            else if (wt < it->second.w)
              it->second = {wt, c};
          };
          const std::uint32_t self = g.subgoal_at(vx, vy);
          if (self != kNoNode) add(self, leg[c]);
          const unsigned mask = skip ? SubgoalGraph::cell_corner_skip(leg, c) : 0u;
          if (skip) skipped_routes += std::size_t(std::popcount(mask));
          g.direct_h_reachable(
              vx, vy,
              [&](std::uint32_t t, OctileCost) {
                if (t != self) add(t, leg[c] + std::hypot(double(vx - g.x(t)), double(vy - g.y(t))));
              },
              mask);
        }
        return best;
      };
      const auto full = connections(false), lean = connections(true);
      ASSERT_EQ(full.size(), lean.size()) << "map " << map << " point " << px << "," << py;
      for (const auto& [t, b] : full) {
        const auto it = lean.find(t);
        ASSERT_NE(it, lean.end()) << "map " << map << " subgoal " << t;
        ASSERT_EQ(it->second.w, b.w) << "map " << map << " subgoal " << t;
        ASSERT_EQ(it->second.corner, b.corner) << "map " << map << " subgoal " << t;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 20000u);
  EXPECT_GT(skipped_routes, 5000u);
  // At the centre every corner leaves out exactly the three moves into the cell.
  const double centre[4] = {std::sqrt(0.5), std::sqrt(0.5), std::sqrt(0.5), std::sqrt(0.5)};
  EXPECT_EQ(SubgoalGraph::cell_corner_skip(centre, 0), (1u << 0) | (1u << 1) | (1u << 4));  // E S SE
  EXPECT_EQ(SubgoalGraph::cell_corner_skip(centre, 3), (1u << 2) | (1u << 3) | (1u << 6));  // W N NW
  // At a corner itself nothing is left out there; the others leave out the way back to it.
  const double at0[4] = {0.0, 1.0, 1.0, std::sqrt(2.0)};
  EXPECT_EQ(SubgoalGraph::cell_corner_skip(at0, 0), 0u);
  EXPECT_EQ(SubgoalGraph::cell_corner_skip(at0, 3), (1u << 2) | (1u << 3) | (1u << 6));
}

// Uras et al.'s Figure 1 shape, in cells: the convex corners of a block are subgoals, a flat wall
// has none, and partitioning classifies some subgoals as local on a map with several blocks.
TEST(Subgoal, SubgoalsSitAtConvexCornersAndPartitioningMakesLevels) {
  // 12 x 9 with two blocks.
  const char* rows[] = {"............", "..##........", "..##....###.", "........###.", "............",
                        "....#.......", "....#....#..", "..........#.", "............"};
  const int w = 12, h = 9;
  std::vector<std::uint8_t> blocked;
  for (const char* r : rows)
    for (int x = 0; x < w; ++x) blocked.push_back(r[x] == '#' ? 1 : 0);
  SubgoalGraph g;
  g.build(SubgoalGraph::Form::Cells, w, h, blocked, 1);
  // The 2x2 block at (2..3, 1..2): its four diagonal neighbours are subgoals.
  for (auto [x, y] : {std::pair{1, 0}, {4, 0}, {1, 3}, {4, 3}})
    EXPECT_NE(g.subgoal_at(x, y), kNoNode) << x << "," << y;
  // Cells beside a wall (not at a corner) are not.
  EXPECT_EQ(g.subgoal_at(2, 0), kNoNode);
  EXPECT_EQ(g.subgoal_at(1, 1), kNoNode);
  EXPECT_EQ(g.top_level(), 1);
  for (std::uint32_t s = 0; s < g.size(); ++s) EXPECT_TRUE(g.top(s));
  SubgoalGraph gn;
  gn.build(SubgoalGraph::Form::Cells, w, h, blocked, 0);
  EXPECT_EQ(gn.size(), g.size());
  EXPECT_GE(gn.top_level(), 2);
  int local = 0;
  for (std::uint32_t s = 0; s < gn.size(); ++s) local += gn.top(s) ? 0 : 1;
  EXPECT_GT(local, 0);
}

// The subgoal planner writes its grid paths from straight runs (fill_cell_runs): the same
// points, headings and pieces as fill_cell_path on the cells those runs visit, for random runs
// (repeated and zero-length ones, paths of one cell included).
TEST(Subgoal, CellRunsFillAsTheirCells) {
  std::mt19937 rng(12);
  const int dirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<CellRun> runs;
    const int nruns = int(rng() % 7);
    for (int i = 0; i < nruns; ++i) {
      // Few directions, so consecutive runs often go the same way.
      const auto& d = dirs[rng() % (trial % 2 ? 2u : 8u)];
      runs.push_back({d[0], d[1], std::uint32_t(rng() % 4)});
    }
    const int x0 = int(rng() % 50), y0 = int(rng() % 50);
    std::vector<Vec2> cells{{x0 + 0.5, y0 + 0.5}};
    for (const CellRun& run : runs)
      for (std::uint32_t k = 0; k < run.count; ++k)
        cells.push_back({cells.back().x + run.dx, cells.back().y + run.dy});
    PlanResult want, got;
    fill_cell_path(want, cells);
    got.points.push_back({-1, -1, 0});  // stale contents are replaced
    fill_cell_runs(got, x0, y0, runs);
    ASSERT_EQ(got.points, want.points) << trial;
    ASSERT_EQ(got.pieces.size(), want.pieces.size()) << trial;
    for (std::size_t i = 0; i < want.pieces.size(); ++i) {
      EXPECT_EQ(got.pieces[i].kind, want.pieces[i].kind);
      EXPECT_EQ(got.pieces[i].line.a, want.pieces[i].line.a) << trial << " piece " << i;
      EXPECT_EQ(got.pieces[i].line.b, want.pieces[i].line.b) << trial << " piece " << i;
    }
  }
}

// PlanResult::metric says what a result promises: the cells form the 8-connected optimum, the
// corners form (anyangle, theta) any-angle paths. `scen` judges each result by it: on a MovingAI
// file the any-angle paths below the 8-connected optima are counted apart and fail nothing,
// while the same file with the cells form must match every optimum.
TEST(Subgoal, MetricSaysWhatScenMayExpect) {
  Scene scene;
  scene.map = load_map(test::shared_data("dao/arena.map"));
  Query q;
  q.start = {1.5, 7.5, 0};  // arena.map.scen's last problem
  q.goal = {47.5, 46.5, 0};
  const std::pair<std::map<std::string, std::string>, PlanResult::Metric> cases[] = {
      {{}, PlanResult::Metric::Grid8Optimal},
      {{{"anyangle", "true"}}, PlanResult::Metric::AnyAngle},
      {{{"search", "theta"}}, PlanResult::Metric::AnyAngle}};
  for (const auto& [params, metric] : cases) {
    const PlanResult r = Registry::builtin().create("subgoal", params)->plan(scene, q);
    ASSERT_TRUE(r.found) << r.message;
    EXPECT_EQ(r.metric, metric);
  }
  const std::string scen = "'" + test::shared_data("dao/arena.map.scen") + "'";
  const test::CliRun any =
      test::run_cli("scen " + scen + " --planner subgoal --set anyangle=true --json");
  ASSERT_EQ(any.code, 0) << any.err;
  const auto a = nlohmann::json::parse(any.out);
  EXPECT_TRUE(a["summary"]["ok"].get<bool>());
  EXPECT_GT(a["summary"]["shorter_any_angle"].get<int>(), 0);
  EXPECT_EQ(a["summary"]["shorter_than_optimal"].get<int>(), 0);
  EXPECT_GE(a["summary"]["mismatches"].get<int>(), a["summary"]["shorter_any_angle"].get<int>());
  int below = 0;
  for (const auto& res : a["results"])
    if (res["found"].get<bool>() &&
        res["length"].get<double>() < res["optimal"].get<double>() - 1e-4)
      ++below;
  EXPECT_EQ(below, a["summary"]["shorter_any_angle"].get<int>());
  const test::CliRun grid = test::run_cli("scen " + scen + " --planner subgoal --json");
  ASSERT_EQ(grid.code, 0) << grid.err;
  const auto g = nlohmann::json::parse(grid.out);
  EXPECT_EQ(g["summary"]["mismatches"].get<int>(), 0);
  EXPECT_EQ(g["summary"]["shorter_any_angle"].get<int>(), 0);
}

class GraphWatcher : public SearchObserver {
 public:
  std::vector<std::string> phases;
  std::map<int, int> rings;  // level -> rings
  double widest_ring = 0;
  std::map<Role, std::string> names;
  void role_name(Role role, std::string_view name) override { names[role] = name; }
  int edges = 0, added = 0, tests = 0, top = 0, ascending = 0, connections = 0;
  void phase(std::string_view name) override { phases.emplace_back(name); }
  void mark(const Shape& s, Role role) override {
    if (role == Role::Subgoal && s.kind == Shape::Kind::Circle) {
      ++rings[s.level];
      widest_ring = std::max(widest_ring, s.radius);
    }
    if (role == Role::AbstractEdge) ++edges;
    if (role == Role::Candidate) ++added;
    if (role == Role::AbstractNode) ++top;
    if (role == Role::Highlight) ++ascending;
    if (role == Role::Start || role == Role::Goal) ++connections;
  }
  void test(const Shape&, bool) override { ++tests; }
};

double stat_of(const PlanResult& r, const std::string& name) {
  for (const auto& [k, v] : r.stats)
    if (k == name) return v;
  return -1.0;
}

TEST(Subgoal, WatchedThroughTheHookAndWatchingChangesNothing) {
  Scene scene;
  scene.map = load_map(test::shared_data("dao/den312d.map"));
  for (const char* search : {"astar", "theta"}) {
    auto planner = Registry::builtin().create("subgoal", {{"levels", "n"}, {"search", search}});
    Query q;
    q.start = {20.5, 30.5, 0};
    q.goal = {60.5, 70.5, 0};
    const PlanResult plain = planner->plan(scene, q);
    ASSERT_TRUE(plain.found) << plain.message;
    GraphWatcher w;
    RunContext ctx;
    ctx.observer = &w;
    const PlanResult watched = planner->plan(scene, q, ctx);
    EXPECT_EQ(watched.length, plain.length);
    EXPECT_EQ(watched.expanded, plain.expanded);
    for (const char* ph : {"subgoals", "subgoal graph edges", "edges partitioning added",
                           "connect start and goal", "ascending edges", "top level", "search"})
      EXPECT_NE(std::find(w.phases.begin(), w.phases.end(), ph), w.phases.end()) << ph;
    // One ring per level: every subgoal has a level-1 ring, fewer have level-2 rings, ...
    const int levels = int(stat_of(plain, "levels"));
    ASSERT_GE(levels, 2);
    EXPECT_EQ(w.rings[1], int(stat_of(plain, "subgoals")));
    for (int l = 2; l <= levels; ++l) EXPECT_LT(w.rings[l], w.rings[l - 1]) << l;
    // However many levels, a subgoal's rings stay inside its cell's reach (they grew 0.18 a
    // level and hid the map on graphs of 8-19 levels), and the top ring is still the widest.
    EXPECT_LE(w.widest_ring, 0.45 + 1e-12) << levels << " levels";
    EXPECT_GT(w.widest_ring, 0.3) << levels << " levels";
    // Every role the graph is drawn in has a name in the legend.
    for (Role r : {Role::Subgoal, Role::AbstractEdge, Role::Candidate, Role::Highlight, Role::AbstractNode})
      EXPECT_FALSE(w.names[r].empty()) << role_name(r);
    EXPECT_EQ(w.names[Role::Highlight], "ascending edge of this query");
    EXPECT_EQ(w.edges, int(stat_of(plain, "edges (S_1)")));
    EXPECT_EQ(w.added, int(stat_of(plain, "edges added by partitioning")));
    EXPECT_GT(w.top, 0);
    EXPECT_GT(w.connections, 0);
    if (std::string(search) == "theta") {
      EXPECT_EQ(w.tests, int(stat_of(plain, "line-of-sight tests")));
      EXPECT_GT(w.tests, 0);
    }
  }
}

TEST(Subgoal, GraphBuiltOncePerMapVersion) {
  Scene scene;
  scene.map = load_map(test::shared_data("dao/den312d.map"));
  auto planner = Registry::builtin().create("subgoal");
  Query q;
  q.start = {10.5, 10.5, 0};
  q.goal = {60.5, 50.5, 0};
  const PlanResult a = planner->plan(scene, q);
  const PlanResult b = planner->plan(scene, q);
  EXPECT_GT(a.prepare_ms, 0.0);
  EXPECT_EQ(b.prepare_ms, 0.0);
  EXPECT_EQ(a.length, b.length);
  auto stat = stat_of;
  EXPECT_GT(stat(a, "subgoals"), 0);
  EXPECT_GT(stat(a, "graph bytes"), 0);
  EXPECT_GE(stat(a, "preprocessing ms"), 0);
  scene.map.set(11, 10, scene.map.at(11, 10));  // a new version of the same map
  const PlanResult c = planner->plan(scene, q);
  EXPECT_GT(c.prepare_ms, 0.0);
  EXPECT_EQ(c.length, a.length);
}

}  // namespace
}  // namespace pl
