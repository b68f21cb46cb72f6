// The near-optimal any-angle planners against the exact one (issue 12, "done means"): Theta*,
// Lazy Theta*, Block A* and corner A* with post-smoothing (and the others with it too)
//  - never return a path shorter than the exact optimum, nor one that breaks line of sight
//    (checked here with CornerGrid::path_valid, independently of the planners);
//  - stay within 1% of the optimum on average over the any-angle scenarios (../shared/anyangle);
//  - on small random maps: found exactly when the exact planner finds a path, never shorter;
// plus Block A*'s LDDB (built once per pattern), post-smoothing itself, and the CLI's answer to a
// corner planner given a MovingAI (cell) scenario.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
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

double stat(const PlanResult& r, const std::string& name) {
  for (auto& [k, v] : r.stats)
    if (k == name) return v;
  return -1;
}

struct Variant {
  const char* planner;
  bool smoothing;
  std::string label() const { return std::string(planner) + (smoothing ? "+smoothing" : ""); }
};
const Variant kVariants[] = {{"theta", false},        {"lazy-theta", false},
                             {"block-astar", false},  {"corner-astar", true},
                             {"theta", true},         {"lazy-theta", true},
                             {"block-astar", true}};

std::unique_ptr<Planner> make(const Variant& v) {
  return Registry::builtin().create(v.planner, {{"smoothing", v.smoothing ? "true" : "false"}});
}

TEST(AnyAngleBounds, WithinOnePercentOfTheExactOptimumOnTheScenarios) {
  for (const Variant& v : kVariants) {
    auto planner = make(v);
    double gap_sum = 0, gap_max = 0;
    int n = 0;
    for (const char* file : {"arena.map", "den312d.map", "AR0408SR.map"}) {
      Scene scene;
      scene.map = load_map(anyangle_dir() + file);
      const Scenario scen = load_scen(anyangle_dir() + file + ".scen", /*corners=*/true);
      const CornerGrid grid(scene.map, 0);
      for (std::size_t i = 0; i < scen.problems.size(); ++i) {
        const ScenProblem& p = scen.problems[i];
        const PlanResult r = planner->plan(scene, query(p.start_x, p.start_y, p.goal_x, p.goal_y));
        ASSERT_TRUE(r.found) << v.label() << " " << file << " " << i;
        ASSERT_GE(r.length, p.optimal - scen.tolerance(i)) << v.label() << " " << file << " " << i;
        ASSERT_NEAR(pieces_length(r), r.length, 1e-9) << v.label();
        const auto pts = path_points(r);
        std::string why;
        ASSERT_TRUE(pts.empty() || grid.path_valid(pts, &why)) << v.label() << " " << file << " " << i << ": " << why;
        if (!pts.empty()) {
          ASSERT_TRUE(pts.front() == (Vec2{double(p.start_x), double(p.start_y)}));
          ASSERT_TRUE(pts.back() == (Vec2{double(p.goal_x), double(p.goal_y)}));
        }
        const double gap = p.optimal > 0 ? r.length / p.optimal - 1 : 0;
        gap_sum += gap;
        gap_max = std::max(gap_max, gap);
        ++n;
      }
    }
    ASSERT_EQ(n, 300);
    EXPECT_LT(gap_sum / n, 0.01) << v.label();
    std::printf("%-24s mean %.4f%%, max %.4f%% over the optimum (300 problems)\n", v.label().c_str(),
                100 * gap_sum / n, 100 * gap_max);
  }
}

TEST(AnyAngleBounds, NeverShorterThanExactOnRandomMaps) {
  std::mt19937 rng(4242);
  auto exact = Registry::builtin().create("visibility");
  std::vector<std::unique_ptr<Planner>> planners;
  for (const Variant& v : kVariants) planners.push_back(make(v));
  int solved = 0;
  std::map<std::string, int> smoothed_shorter;
  for (int map = 0; map < 300; ++map) {
    Scene scene;
    const int w = 3 + int(rng() % 15), h = 3 + int(rng() % 15);  // sizes not multiples of 5 too
    scene.map = random_map(rng, w, h, 5 + int(rng() % 35));
    const CornerGrid grid(scene.map, 0);
    for (int k = 0; k < 6; ++k) {
      double sx = double(rng() % unsigned(w + 1)), sy = double(rng() % unsigned(h + 1));
      double gx = double(rng() % unsigned(w + 1)), gy = double(rng() % unsigned(h + 1));
      const bool centres = k == 5;
      if (centres) {
        sx = std::min(sx, double(w - 1)) + 0.5;
        sy = std::min(sy, double(h - 1)) + 0.5;
        gx = std::min(gx, double(w - 1)) + 0.5;
        gy = std::min(gy, double(h - 1)) + 0.5;
        if (grid.blocked(int(sx), int(sy)) || grid.blocked(int(gx), int(gy))) continue;
      }
      const Query q = query(sx, sy, gx, gy);
      const PlanResult opt = exact->plan(scene, q);
      if (opt.found) ++solved;
      for (std::size_t i = 0; i < planners.size(); ++i) {
        const std::string label = kVariants[i].label();
        const PlanResult r = planners[i]->plan(scene, q);
        ASSERT_EQ(r.found, opt.found) << label << " map " << map << " (" << sx << "," << sy << ") -> (" << gx << "," << gy << ")";
        if (!r.found) continue;
        ASSERT_GE(r.length, opt.length - 1e-9) << label << " map " << map << " (" << sx << "," << sy << ") -> (" << gx << "," << gy << ")";
        ASSERT_NEAR(pieces_length(r), r.length, 1e-9) << label;
        auto pts = path_points(r);
        if (pts.empty()) continue;
        ASSERT_TRUE(pts.front() == (Vec2{sx, sy})) << label;
        ASSERT_TRUE(pts.back() == (Vec2{gx, gy})) << label;
        if (centres) {  // the legs to the cells' corners are not corner segments
          ASSERT_GE(pts.size(), 2u);
          pts = std::vector<Vec2>(pts.begin() + 1, pts.end() - 1);
        }
        std::string why;
        ASSERT_TRUE(grid.path_valid(pts, &why)) << label << " map " << map << ": " << why;
        if (kVariants[i].smoothing && stat(r, "length before smoothing") > r.length + 1e-9)
          ++smoothed_shorter[label];
      }
    }
  }
  EXPECT_GT(solved, 800);
  // Post-smoothing shortens some corner A* paths on these maps (it has the most to cut).
  EXPECT_GT(smoothed_shorter["corner-astar+smoothing"], 100);
}

TEST(AnyAngleBounds, SmoothingIsInThePlannersTimeAndStats) {
  Scene scene;
  scene.map = load_map(anyangle_dir() + "den312d.map");
  auto plain = Registry::builtin().create("corner-astar");
  auto smooth = Registry::builtin().create("corner-astar", {{"smoothing", "true"}});
  // An open diagonal-ish query: corner A* zigzags, smoothing straightens it.
  const Query q = query(30, 27, 16, 19);
  const PlanResult a = plain->plan(scene, q);
  const PlanResult b = smooth->plan(scene, q);
  ASSERT_TRUE(a.found && b.found);
  EXPECT_LT(b.length, a.length - 0.1);
  EXPECT_DOUBLE_EQ(stat(b, "length before smoothing"), a.length);
  EXPECT_GT(stat(b, "smoothing line-of-sight tests"), 0);
  EXPECT_EQ(stat(a, "smoothing line-of-sight tests"), -1);
  EXPECT_LT(b.pieces.size(), a.pieces.size());
  EXPECT_EQ(b.expanded, a.expanded);  // the same search, then the smoother
  // The parameter is declared (listed, type checked).
  EXPECT_THROW(Registry::builtin().create("theta", {{"smoothing", "maybe"}}), InputError);
}

TEST(AnyAngleBounds, BlockAStarBuildsItsDatabaseOncePerPattern) {
  Scene scene;
  scene.map = load_map(anyangle_dir() + "arena.map");
  auto planner = Registry::builtin().create("block-astar");
  const PlanResult a = planner->plan(scene, query(10, 10, 40, 40));
  ASSERT_TRUE(a.found);
  EXPECT_GT(a.prepare_ms, 0);
  const double patterns = stat(a, "block patterns in the LDDB");
  EXPECT_GT(patterns, 5);
  EXPECT_EQ(stat(a, "new block patterns"), patterns);
  const PlanResult b = planner->plan(scene, query(40, 40, 10, 10));
  EXPECT_EQ(b.prepare_ms, 0);  // the map is unchanged: nothing to prepare
  EXPECT_EQ(stat(b, "new block patterns"), -1);
  EXPECT_NEAR(b.length, a.length, 1e-9);
  // The same map loaded again (a new map): its blocks are looked up, none computed again.
  Scene again;
  again.map = load_map(anyangle_dir() + "arena.map");
  const PlanResult c = planner->plan(again, query(10, 10, 40, 40));
  EXPECT_EQ(stat(c, "new block patterns"), 0);
  EXPECT_EQ(c.length, a.length);
  EXPECT_GT(stat(c, "LDDB memory bytes"), 0);
}

TEST(AnyAngleBounds, BlockAStarPathsCrossBlocksAtBoundaryCorners) {
  // An open map: a straight line through boundary corners is one piece however many blocks it
  // crosses, and a direction that crosses boundaries between corners stays close to straight.
  Scene scene;
  scene.map = GridMap(23, 17);
  auto planner = Registry::builtin().create("block-astar");
  PlanResult r = planner->plan(scene, query(0, 0, 15, 15));  // through block corners
  ASSERT_TRUE(r.found);
  EXPECT_NEAR(r.length, 15 * std::sqrt(2.0), 1e-9);
  EXPECT_EQ(r.pieces.size(), 1u);
  r = planner->plan(scene, query(0, 3, 22, 3));  // along a row, across four blocks
  ASSERT_TRUE(r.found);
  EXPECT_NEAR(r.length, 22, 1e-12);
  EXPECT_EQ(r.pieces.size(), 1u);
  r = planner->plan(scene, query(1, 2, 22, 13));  // both inside blocks, slope 11/21
  ASSERT_TRUE(r.found);
  EXPECT_GE(r.length, std::hypot(21, 11) - 1e-9);
  EXPECT_LT(r.length, std::hypot(21, 11) * 1.03);
}

TEST(AnyAngleCli, PlainScenRefusesCornerPlanners) {
  const std::string scen = std::string(PATHLAB_SHARED_DIR) + "/data/dao/arena.map.scen";
  for (const char* name : {"theta", "visibility", "block-astar"}) {
    const auto r = test::run_cli("scen '" + scen + "' --planner " + name + " --limit 2");
    EXPECT_EQ(r.code, 2) << name << r.out;
    EXPECT_NE(r.err.find(std::string("planner ") + name + " answers corner queries; use --coordinates corners"),
              std::string::npos)
        << r.err;
  }
  const auto g = test::run_cli("scen '" + scen + "' --planner astar --limit 2");
  EXPECT_EQ(g.code, 0) << g.err;
  const auto l = test::run_cli("planners --json");
  ASSERT_EQ(l.code, 0);
  EXPECT_NE(l.out.find("\"coordinates\": \"corners\""), std::string::npos);
  EXPECT_NE(l.out.find("\"coordinates\": \"cells\""), std::string::npos);
  const auto t = test::run_cli("planners");
  EXPECT_NE(t.out.find("corner queries"), std::string::npos);
  // The corner scenarios take the parameter: Block A* with post-smoothing, every path checked.
  const auto c = test::run_cli("scen '" + anyangle_dir() +
                               "arena.map.scen' --coordinates corners --planner block-astar --set smoothing=true --json");
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.out.find("\"line_of_sight_broken\": 0"), std::string::npos);
  EXPECT_NE(c.out.find("\"shorter_than_optimal\": 0"), std::string::npos);
}

}  // namespace
}  // namespace pl
