// Hybrid A* (issue 11 item 6): every returned path is continuous, never curves tighter than the
// turning radius and keeps the agent's disc off blocked cells -- checked here independently of
// the planner's collision code, by dense sampling along the pieces -- on hundreds of seeded
// random maps; open space solved by the Dubins shot alone; a walled-off goal reported as no path.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/curves.hpp"
#include "core/footprint_arc.hpp"
#include "core/scene.hpp"
#include "planners/hybrid_astar.hpp"
#include "planners/planner.hpp"
#include "viz/trace.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

double angle_gap(double a, double b) {
  const double d = std::fmod(std::abs(a - b), kTwoPi);
  return std::min(d, kTwoPi - d);
}

// The test's own collision check: the disc of radius r at points no more than `step` apart along
// each piece (arcs by angle, lines by length) against every blocked cell and the map's border. A
// blocked cell counts when the disc reaches more than 1e-7 into it (grazing is legal); between
// samples an intrusion deeper than step / 2 cannot hide.
std::string first_collision(const GridMap& map, CapabilityMask cap, const std::vector<PathPiece>& pieces,
                            double r, double step = 0.005) {
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const PathPiece& p = pieces[i];
    const double len = p.length();
    const int n = std::max(1, int(std::ceil(len / step)));
    for (int j = 0; j <= n; ++j) {
      const double t = double(j) / n;
      Vec2 c;
      if (p.kind == PathPiece::Kind::Line)
        c = p.line.a + (p.line.b - p.line.a) * t;
      else
        c = p.arc.point_at(p.arc.start_angle + p.arc.sweep * t);
      if (c.x - r < -1e-7 || c.y - r < -1e-7 || c.x + r > map.width() + 1e-7 ||
          c.y + r > map.height() + 1e-7)
        return "piece " + std::to_string(i) + " leaves the map";
      const int x0 = int(std::floor(c.x - r)), x1 = int(std::floor(c.x + r));
      const int y0 = int(std::floor(c.y - r)), y1 = int(std::floor(c.y + r));
      for (int y = std::max(0, y0); y <= std::min(map.height() - 1, y1); ++y)
        for (int x = std::max(0, x0); x <= std::min(map.width() - 1, x1); ++x) {
          if (map.passable(x, y, cap)) continue;
          const double nx = std::clamp(c.x, double(x), x + 1.0), ny = std::clamp(c.y, double(y), y + 1.0);
          if (std::hypot(c.x - nx, c.y - ny) < r - 1e-7)
            return "piece " + std::to_string(i) + " at (" + std::to_string(c.x) + "," +
                   std::to_string(c.y) + ") overlaps blocked cell (" + std::to_string(x) + "," +
                   std::to_string(y) + ")";
        }
    }
  }
  return {};
}

// Continuity, headings, curvature and the endpoints; "" when all hold.
std::string shape_problem(const PlanResult& res, const Query& q) {
  if (res.pieces.empty()) {
    if (distance(q.start.position(), q.goal.position()) < 1e-9 &&
        angle_gap(q.start.heading, q.goal.heading) < 1e-9)
      return {};
    return "no pieces";
  }
  Pose at = q.start;
  double total = 0;
  for (std::size_t i = 0; i < res.pieces.size(); ++i) {
    const PathPiece& p = res.pieces[i];
    const Pose a = piece_start_pose(p);
    if (distance(a.position(), at.position()) > 1e-6 || angle_gap(a.heading, at.heading) > 1e-6)
      return "piece " + std::to_string(i) + " does not join the previous one";
    if (p.kind == PathPiece::Kind::Arc && p.arc.radius < q.turning_radius - 1e-9)
      return "piece " + std::to_string(i) + " curves tighter than the turning radius";
    at = piece_end_pose(p);
    total += p.length();
  }
  if (distance(at.position(), q.goal.position()) > 1e-6 || angle_gap(at.heading, q.goal.heading) > 1e-6)
    return "the path does not end at the goal pose";
  if (std::abs(total - res.length) > 1e-6 * std::max(1.0, total)) return "length mismatch";
  return {};
}

Pose random_free_pose(std::mt19937& rng, const GridMap& map, CapabilityMask cap, double r) {
  std::uniform_real_distribution<double> ux(0, map.width()), uy(0, map.height()), ua(0, kTwoPi);
  for (;;) {
    const Pose p{ux(rng), uy(rng), ua(rng)};
    std::vector<PathPiece> dot(1);
    dot[0].line = {p.position(), p.position()};
    if (first_collision(map, cap, dot, r).empty()) return p;
  }
}

TEST(HybridAStar, RandomMapsGiveContinuousLegalPaths) {
  std::mt19937 rng(20261123);
  const int sizes[] = {20, 32, 48};
  const double radii[] = {0.25, 0.5, 0.8};
  const double turns[] = {1.0, 2.0, 3.5};
  int found = 0, total = 0, reversing = 0;
  for (int trial = 0; trial < 240; ++trial) {
    const int n = sizes[trial % 3];
    const double density = 0.05 + 0.05 * (trial % 4);
    GridMap map = test::random_map(rng, n, n, {0, 4}, {1 - density, density});
    Scene scene;
    scene.map = map;
    const CapabilityMask cap = scene.map.palette().movingai_default_capability();
    Query q;
    q.capability = cap;
    q.radius = radii[(trial / 3) % 3];
    q.turning_radius = turns[(trial / 9) % 3];
    q.can_reverse = trial % 5 == 0;
    q.start = random_free_pose(rng, scene.map, cap, q.radius);
    q.goal = random_free_pose(rng, scene.map, cap, q.radius);
    HybridAStarParams prm;
    prm.headings = trial % 7 == 0 ? 36 : 72;
    prm.heuristic = trial % 6 == 1   ? HybridAStarParams::Heuristic::Grid
                    : trial % 6 == 3 ? HybridAStarParams::Heuristic::Curve
                                     : HybridAStarParams::Heuristic::Max;
    HybridAStarPlanner planner(prm);
    const PlanResult res = planner.plan(scene, q);
    ++total;
    ASSERT_FALSE(res.bad_query) << res.message;
    if (!res.found) continue;
    ++found;
    for (const PathPiece& p : res.pieces) reversing += p.reverse;
    EXPECT_EQ(shape_problem(res, q), "") << "trial " << trial;
    EXPECT_EQ(first_collision(scene.map, cap, res.pieces, q.radius), "") << "trial " << trial;
  }
  RecordProperty("found", found);
  RecordProperty("queries", total);
  // Not vacuous: most queries on these maps have paths, and some paths reverse.
  EXPECT_GT(found, total / 3) << found << " of " << total;
  EXPECT_GT(reversing, 0);
}

TEST(FootprintArc, NeverAcceptsAnArcTheSamplingSeesCollide) {
  // arc_walkable against the test's own sampling on random arcs: an accepted arc never collides;
  // and the check is not vacuous (both answers occur, and most clear arcs are accepted).
  std::mt19937 rng(11);
  GridMap map = test::random_map(rng, 24, 24, {0, 4}, {0.8, 0.2});
  const CapabilityMask cap = map.palette().movingai_default_capability();
  auto blocked = [&](int x, int y) { return !map.passable(x, y, cap); };
  std::uniform_real_distribution<double> pos(3, 21), ang(0, kTwoPi), sw(-3, 3), rad(0.5, 4),
      fr(0.1, 0.9);
  int accepted = 0, rejected = 0, clear_by_sampling = 0;
  for (int i = 0; i < 3000; ++i) {
    Arc a{{pos(rng), pos(rng)}, rad(rng), ang(rng), sw(rng)};
    const double r = fr(rng);
    PathPiece p;
    p.kind = PathPiece::Kind::Arc;
    p.arc = a;
    const bool ok = arc_walkable(24, 24, blocked, a, Footprint::disc(r));
    const bool sampled_clear = first_collision(map, cap, {p}, r).empty();
    clear_by_sampling += sampled_clear;
    (ok ? accepted : rejected)++;
    if (ok) {
      EXPECT_TRUE(sampled_clear) << i;
    }
  }
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 100);
  EXPECT_GT(accepted, clear_by_sampling * 9 / 10);
}

TEST(HybridAStar, OpenSpaceIsOneDubinsShot) {
  Scene scene;
  scene.map = GridMap(40, 40);
  Query q;
  q.start = {10.5, 20.5, 0.0};
  q.goal = {30.25, 24.75, kPi / 2};
  q.turning_radius = 3;
  q.radius = 0.5;
  HybridAStarPlanner planner;
  const PlanResult res = planner.plan(scene, q);
  ASSERT_TRUE(res.found) << res.message;
  const Curve d = dubins(q.start, q.goal, q.turning_radius);
  EXPECT_NEAR(res.length, d.length, 1e-9);
  EXPECT_EQ(res.expanded, 1u);
  EXPECT_EQ(shape_problem(res, q), "");
}

TEST(HybridAStar, AroundAWall) {
  // A wall across the middle with a gap at the bottom: the path must go round it.
  Scene scene;
  scene.map = GridMap(40, 40);
  const TerrainId wall = scene.map.palette().default_obstacle();
  for (int y = 0; y < 32; ++y) scene.map.set(20, y, wall);
  Query q;
  q.capability = scene.map.palette().movingai_default_capability();
  q.start = {5.5, 5.5, 0.0};
  q.goal = {35.5, 5.5, 0.0};
  q.turning_radius = 2;
  q.radius = 0.5;
  HybridAStarPlanner planner;
  const PlanResult res = planner.plan(scene, q);
  ASSERT_TRUE(res.found) << res.message;
  EXPECT_EQ(shape_problem(res, q), "");
  EXPECT_EQ(first_collision(scene.map, q.capability, res.pieces, q.radius), "");
  double lowest = 0;
  for (const Pose& p : res.points) lowest = std::max(lowest, p.y);
  EXPECT_GT(lowest, 32.0);
}

TEST(HybridAStar, WalledOffGoalHasNoPath) {
  Scene scene;
  scene.map = GridMap(30, 30);
  const TerrainId wall = scene.map.palette().default_obstacle();
  for (int i = 18; i <= 26; ++i) {
    scene.map.set(i, 18, wall);
    scene.map.set(i, 26, wall);
    scene.map.set(18, i, wall);
    scene.map.set(26, i, wall);
  }
  Query q;
  q.start = {3.5, 3.5, 0.0};
  q.goal = {22.5, 22.5, 1.0};
  q.turning_radius = 1.5;
  q.radius = 0.4;
  for (const char* h : {"max", "grid"}) {
    auto planner = Registry::builtin().create("hybrid-astar", {{"heuristic", h}});
    const PlanResult res = planner->plan(scene, q);
    EXPECT_FALSE(res.found) << h;
    EXPECT_FALSE(res.bad_query) << h;
    EXPECT_NE(res.message.find("walled off"), std::string::npos) << res.message;
  }
  // The curve heuristic alone has no fail-fast: it searches every pose it can reach, and still
  // reports no path.
  auto planner = Registry::builtin().create("hybrid-astar", {{"heuristic", "curve"}, {"headings", "16"}});
  const PlanResult res = planner->plan(scene, q);
  EXPECT_FALSE(res.found);
  EXPECT_GT(res.expanded, 100u);
}

TEST(HybridAStar, ReversingOutOfACorridor) {
  // A corridor three cells wide: with turning radius 3 the car cannot turn round in it, so a goal
  // behind it facing the same way is reached only by driving backwards.
  Scene scene;
  scene.map = GridMap(40, 9, Palette::movingai().default_obstacle());
  for (int x = 1; x < 39; ++x)
    for (int y = 3; y < 6; ++y) scene.map.set(x, y, 0);
  Query q;
  q.capability = scene.map.palette().movingai_default_capability();
  q.start = {30.5, 4.5, 0.0};
  q.goal = {5.5, 4.5, 0.0};
  q.turning_radius = 3;
  q.radius = 0.4;
  HybridAStarPlanner forward_only;
  const PlanResult no = forward_only.plan(scene, q);
  EXPECT_FALSE(no.found);
  EXPECT_FALSE(no.bad_query);
  q.can_reverse = true;
  HybridAStarPlanner reversing;
  const PlanResult yes = reversing.plan(scene, q);
  ASSERT_TRUE(yes.found) << yes.message;
  EXPECT_EQ(shape_problem(yes, q), "");
  EXPECT_EQ(first_collision(scene.map, q.capability, yes.pieces, q.radius), "");
  double backwards = 0;
  for (const PathPiece& p : yes.pieces) backwards += p.reverse ? p.length() : 0;
  EXPECT_GT(backwards, 20.0);
}

TEST(HybridAStar, TraceReplaysToTheResult) {
  // Recorded by the trace recorder the app uses: the last frame's path and expansion count are
  // the result's, and the bins replay as cells x headings nodes.
  Scene scene;
  scene.map = GridMap(40, 40);
  const TerrainId wall = scene.map.palette().default_obstacle();
  for (int y = 0; y < 32; ++y) scene.map.set(20, y, wall);
  Query q;
  q.start = {5.5, 5.5, 0.0};
  q.goal = {35.5, 5.5, 0.0};
  q.turning_radius = 2;
  q.radius = 0.5;
  auto planner = Registry::builtin().create("hybrid-astar");
  const PlanResult plain = planner->plan(scene, q);
  TraceRecorder rec;
  RunContext ctx;
  ctx.observer = &rec;
  const PlanResult watched = planner->plan(scene, q, ctx);
  ASSERT_TRUE(plain.found);
  EXPECT_EQ(watched.length, plain.length);
  const Trace trace = rec.take();
  TraceCursor end(trace);
  end.seek(trace.frame_count() - 1);
  const FrameState& st = end.state();
  EXPECT_EQ(st.counters().expanded, plain.expanded);
  ASSERT_EQ(st.path().size(), plain.pieces.size());
  const NodeSpace space = NodeSpace::cell_headings(40, 40, 72);
  const std::uint32_t start_id = space.heading_id(5, 5, 0);
  EXPECT_NE(st.node_by_id(start_id), nullptr);
}

TEST(HybridAStar, NeedsATurningRadius) {
  Scene scene;
  scene.map = GridMap(10, 10);
  Query q;
  q.start = {2.5, 2.5, 0};
  q.goal = {7.5, 7.5, 0};
  q.turning_radius = 0;
  HybridAStarPlanner planner;
  const PlanResult res = planner.plan(scene, q);
  EXPECT_FALSE(res.found);
  EXPECT_TRUE(res.bad_query);
}

struct CountingObserver : SearchObserver {
  int accepted = 0, rejected = 0, arcs = 0;
  std::vector<std::string> phases;
  std::vector<NodeSpace> spaces;
  void phase(std::string_view name) override { phases.emplace_back(name); }
  void space(const NodeSpace& s) override { spaces.push_back(s); }
  void test(const Shape& s, bool ok) override {
    (ok ? accepted : rejected)++;
    arcs += s.kind == Shape::Kind::Arc;
  }
};

TEST(HybridAStar, WatchedRunShowsCandidatesAndPhases) {
  Scene scene;
  scene.map = GridMap(40, 40);
  const TerrainId wall = scene.map.palette().default_obstacle();
  for (int y = 0; y < 32; ++y) scene.map.set(20, y, wall);
  Query q;
  q.start = {5.5, 5.5, 0.0};
  q.goal = {35.5, 5.5, 0.0};
  q.turning_radius = 2;
  q.radius = 0.5;
  HybridAStarPlanner planner;
  CountingObserver obs;
  RunContext ctx;
  ctx.observer = &obs;
  const PlanResult watched = planner.plan(scene, q, ctx);
  const PlanResult plain = planner.plan(scene, q);
  ASSERT_TRUE(watched.found);
  EXPECT_EQ(watched.length, plain.length);
  EXPECT_EQ(watched.expanded, plain.expanded);
  EXPECT_GT(obs.accepted, 0);
  EXPECT_GT(obs.rejected, 0);
  EXPECT_GT(obs.arcs, 0);
  ASSERT_EQ(obs.spaces.size(), 1u);
  EXPECT_EQ(obs.spaces[0], NodeSpace::cell_headings(40, 40, 72));
  ASSERT_EQ(obs.phases.size(), 2u);
  EXPECT_NE(obs.phases[0].find("heuristic"), std::string::npos);
}

}  // namespace
}  // namespace pl
