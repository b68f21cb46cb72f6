#include <gtest/gtest.h>

#include <atomic>
#include <random>

#include "core/clearance.hpp"
#include "core/error.hpp"
#include "planners/grid_search.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

using pl::test::from_rows;

constexpr TerrainId G = 0, S = 1, T = 2, W = 3, H = 4;  // Palette::movingai()

Query cells(int sx, int sy, int gx, int gy, int size = 1, CapabilityMask cap = 0) {
  Query q;
  q.start = {sx + 0.5, sy + 0.5, 0};
  q.goal = {gx + 0.5, gy + 0.5, 0};
  q.size = size;
  q.capability = cap;
  return q;
}

std::unique_ptr<Planner> make(const std::string& name, std::map<std::string, std::string> p = {}) {
  return Registry::builtin().create(name, p);
}

// Checks a grid path: consecutive cells adjacent, every footprint cell of every step inside the
// capability, no corner cutting, and the length equal to the sum of the steps.
void expect_valid_path(const GridMap& m, const PlanResult& r, int size, CapabilityMask cap,
                       bool eight = true) {
  ASSERT_TRUE(r.found);
  ASSERT_FALSE(r.points.empty());
  auto free_loc = [&](int x, int y) {
    for (int yy = y; yy < y + size; ++yy)
      for (int xx = x; xx < x + size; ++xx)
        if (!m.passable(xx, yy, cap)) return false;
    return true;
  };
  double len = 0;
  for (size_t i = 0; i < r.points.size(); ++i) {
    const int x = int(std::floor(r.points[i].x)), y = int(std::floor(r.points[i].y));
    ASSERT_TRUE(free_loc(x, y)) << "step " << i << " at " << x << "," << y;
    if (i == 0) continue;
    const int px = int(std::floor(r.points[i - 1].x)), py = int(std::floor(r.points[i - 1].y));
    const int dx = x - px, dy = y - py;
    ASSERT_LE(std::abs(dx), 1);
    ASSERT_LE(std::abs(dy), 1);
    ASSERT_TRUE(dx || dy);
    if (dx && dy) {
      ASSERT_TRUE(eight);
      ASSERT_TRUE(free_loc(px + dx, py) && free_loc(px, py + dy)) << "corner cut at step " << i;
      len += kSqrt2;
    } else {
      len += 1;
    }
  }
  EXPECT_NEAR(len, r.length, 1e-9);
  double pieces = 0;
  for (auto& p : r.pieces) pieces += p.length();
  EXPECT_NEAR(pieces, r.length, 1e-9);
}

TEST(GridSearch, NoCornerCutting) {
  // The diagonal from (0,0) to (1,1) squeezes past the blocked (1,0): not allowed.
  GridMap m = from_rows({".@.", "...", "..."});
  auto p = make("astar");
  Scene sc;
  sc.map = m;
  PlanResult r = p->plan(sc, cells(0, 0, 1, 1));
  ASSERT_TRUE(r.found);
  EXPECT_NEAR(r.length, 2.0, 1e-12);
  expect_valid_path(sc.map, r, 1, Palette::movingai().movingai_default_capability());
}

TEST(GridSearch, HandComputedLengths) {
  Scene sc;
  sc.map = from_rows({"......", "......", "......"});
  auto a8 = make("astar");
  auto a4 = make("astar", {{"connectivity", "4"}});
  EXPECT_NEAR(a8->plan(sc, cells(0, 0, 5, 2)).length, 3 + 2 * kSqrt2, 1e-12);
  EXPECT_NEAR(a4->plan(sc, cells(0, 0, 5, 2)).length, 7.0, 1e-12);
  // A wall in the middle row: no diagonal may clip its ends, so both detours cost 7.
  sc.map = from_rows({"......", ".@@@@.", "......"});
  EXPECT_NEAR(a8->plan(sc, cells(0, 0, 5, 2)).length, 7.0, 1e-12);
  EXPECT_NEAR(a4->plan(sc, cells(0, 0, 5, 2)).length, 7.0, 1e-12);
  PlanResult same = a8->plan(sc, cells(2, 2, 2, 2));
  EXPECT_TRUE(same.found);
  EXPECT_EQ(same.length, 0.0);
  EXPECT_EQ(same.points.size(), 1u);
}

TEST(GridSearch, BlockedAndUnreachableGiveMessages) {
  Scene sc;
  sc.map = from_rows({"..@..", "..@..", "..@T."});
  auto p = make("astar");
  PlanResult r = p->plan(sc, cells(0, 0, 4, 0));
  EXPECT_FALSE(r.found);
  EXPECT_NE(r.message.find("not reachable"), std::string::npos);
  r = p->plan(sc, cells(3, 2, 0, 0));
  EXPECT_FALSE(r.found);
  EXPECT_NE(r.message.find("trees"), std::string::npos) << r.message;
  Query q = cells(0, 0, 0, 0);
  q.goal.x = 99;
  r = p->plan(sc, q);
  EXPECT_FALSE(r.found);
  EXPECT_NE(r.message.find("outside"), std::string::npos);
}

TEST(GridSearch, AllPlannersAgreeWithReferenceOnRandomMaps) {
  std::mt19937 rng(7);
  auto astar = make("astar");
  auto dij = make("dijkstra");
  auto text = make("astar-textbook");
  auto ann = make("annotated-astar");
  const CapabilityMask cap = Palette::movingai().movingai_default_capability();
  for (int iter = 0; iter < 300; ++iter) {
    Scene sc;
    const int w = 5 + int(rng() % 40), h = 5 + int(rng() % 40);
    sc.map = test::random_map(rng, w, h, {G, S, T, H}, {6, 1, 1, 1.5 + iter % 3});
    for (int k = 0; k < 5; ++k) {
      const int sx = int(rng() % unsigned(w)), sy = int(rng() % unsigned(h));
      const int gx = int(rng() % unsigned(w)), gy = int(rng() % unsigned(h));
      const bool eight = k % 2 == 0;
      const double ref = test::reference_dijkstra(
          w, h, [&](int x, int y) { return sc.map.passable(x, y, cap); }, [](int, int) { return 1.0; },
          sx, sy, gx, gy, true);
      const Query q = cells(sx, sy, gx, gy);
      for (Planner* p : {astar.get(), dij.get(), text.get(), ann.get()}) {
        PlanResult r = p->plan(sc, q);
        ASSERT_EQ(r.found, std::isfinite(ref)) << "iter " << iter;
        if (r.found) {
          EXPECT_NEAR(r.length, ref, 1e-9);
          expect_valid_path(sc.map, r, 1, cap);
        }
      }
      if (!eight) {
        auto a4 = make("astar", {{"connectivity", "4"}});
        const double ref4 = test::reference_dijkstra(
            w, h, [&](int x, int y) { return sc.map.passable(x, y, cap); },
            [](int, int) { return 1.0; }, sx, sy, gx, gy, false);
        PlanResult r = a4->plan(sc, q);
        ASSERT_EQ(r.found, std::isfinite(ref4));
        if (r.found) {
          EXPECT_NEAR(r.length, ref4, 1e-9);
          expect_valid_path(sc.map, r, 1, cap, false);
        }
      }
    }
  }
}

TEST(AnnotatedAStar, LargeAgentsAreOptimalAndNeverTouchForbiddenTerrain) {
  std::mt19937 rng(99);
  auto ann = make("annotated-astar");
  int found = 0;
  for (int iter = 0; iter < 300; ++iter) {
    Scene sc;
    const int w = 8 + int(rng() % 40), h = 8 + int(rng() % 40);
    sc.map = test::random_map(rng, w, h, {G, S, T, W, H}, {10, 3, 1, 1, 1});
    const int size = 1 + int(rng() % 3);
    const CapabilityMask caps[] = {1u << G, (1u << G) | (1u << S), (1u << G) | (1u << T),
                                   (1u << G) | (1u << S) | (1u << W)};
    const CapabilityMask cap = caps[rng() % 4];
    // Brute-force canonical problem: a location is free iff its whole footprint is in `cap`.
    auto free_loc = [&](int x, int y) {
      for (int yy = y; yy < y + size; ++yy)
        for (int xx = x; xx < x + size; ++xx)
          if (!sc.map.passable(xx, yy, cap)) return false;
      return true;
    };
    for (int k = 0; k < 4; ++k) {
      const int sx = int(rng() % unsigned(w)), sy = int(rng() % unsigned(h));
      const int gx = int(rng() % unsigned(w)), gy = int(rng() % unsigned(h));
      const double ref = test::reference_dijkstra(w, h, free_loc, [](int, int) { return 1.0; }, sx, sy,
                                                  gx, gy);
      PlanResult r = ann->plan(sc, cells(sx, sy, gx, gy, size, cap));
      ASSERT_EQ(r.found, std::isfinite(ref)) << "iter " << iter << " size " << size;
      if (r.found) {
        ++found;
        EXPECT_NEAR(r.length, ref, 1e-9);
        expect_valid_path(sc.map, r, size, cap);
      }
    }
  }
  EXPECT_GT(found, 200);
}

TEST(AnnotatedAStar, BrushfireMetricBlocksBottlenecks) {
  Scene sc;
  sc.map = from_rows({"@@@@@@@@", "........", "........", "@@@@@@@@"});
  auto tc = make("annotated-astar");
  auto bf = make("annotated-astar", {{"clearance", "brushfire"}});
  Query q = cells(0, 1, 6, 1, 2, 1u << G);
  EXPECT_TRUE(tc->plan(sc, q).found);
  EXPECT_FALSE(bf->plan(sc, q).found);
}

TEST(GridSearch, TerrainMoveCostsAreHonoured) {
  std::mt19937 rng(3);
  std::vector<Terrain> ts = Palette::movingai().terrains();
  ts[S].cost = 3.0;
  ts[T].cost = 1.5;
  const Palette pal(ts);
  auto astar = make("astar");
  auto dij = make("dijkstra");
  for (int iter = 0; iter < 150; ++iter) {
    Scene sc;
    const int w = 5 + int(rng() % 30), h = 5 + int(rng() % 30);
    sc.map = test::random_map(rng, w, h, {G, S, T, H}, {5, 3, 2, 1});
    sc.map.set_palette(pal);
    const CapabilityMask cap = (1u << G) | (1u << S) | (1u << T);
    const int sx = int(rng() % unsigned(w)), sy = int(rng() % unsigned(h));
    const int gx = int(rng() % unsigned(w)), gy = int(rng() % unsigned(h));
    const double ref = test::reference_dijkstra(
        w, h, [&](int x, int y) { return sc.map.passable(x, y, cap); },
        [&](int x, int y) { return pal[sc.map.at(x, y)].cost; }, sx, sy, gx, gy);
    for (Planner* p : {astar.get(), dij.get()}) {
      PlanResult r = p->plan(sc, cells(sx, sy, gx, gy, 1, cap));
      ASSERT_EQ(r.found, std::isfinite(ref));
      if (r.found) {
        EXPECT_NEAR(r.length, ref, 1e-9);
      }
    }
  }
}

TEST(GridSearch, ReusedPoolGivesTheSameAnswersAsAFreshOne) {
  std::mt19937 rng(11);
  Scene sc;
  sc.map = test::random_map(rng, 60, 60, {G, H}, {3, 1});
  auto reused = make("astar");
  for (int k = 0; k < 200; ++k) {
    const Query q = cells(int(rng() % 60), int(rng() % 60), int(rng() % 60), int(rng() % 60));
    auto fresh = make("astar");
    PlanResult a = reused->plan(sc, q), b = fresh->plan(sc, q);
    ASSERT_EQ(a.found, b.found);
    ASSERT_EQ(a.length, b.length);
    ASSERT_EQ(a.expanded, b.expanded);
    ASSERT_EQ(a.points, b.points);
  }
  // An edit invalidates the cached passability grid.
  sc.map.set(30, 30, H);
  for (int y = 0; y < 60; ++y) sc.map.set(31, y, H);
  PlanResult r = reused->plan(sc, cells(0, 0, 59, 59));
  if (r.found) expect_valid_path(sc.map, r, 1, 1u << G);
}

TEST(GridSearch, CancelStopsTheSearch) {
  Scene sc;
  sc.map = GridMap(600, 600, G);
  std::atomic<bool> cancel{true};
  RunContext ctx;
  ctx.cancel = &cancel;
  PlanResult r = make("dijkstra")->plan(sc, cells(0, 0, 599, 599), ctx);
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.found);
  EXPECT_LE(r.expanded, 4096u);
}

TEST(Registry, ParametersAreChecked) {
  const Registry& reg = Registry::builtin();
  EXPECT_NE(reg.find("astar"), nullptr);
  EXPECT_NE(reg.find("annotated-astar"), nullptr);
  EXPECT_THROW(reg.create("nope"), InputError);
  EXPECT_THROW(reg.create("astar", {{"connectivity", "6"}}), InputError);
  EXPECT_THROW(reg.create("astar", {{"bogus", "1"}}), InputError);
  for (auto& info : reg.all()) {
    ParamSet ps = reg.check(info, {});
    for (auto& d : info.params) EXPECT_EQ(ps.get(d.name), d.default_value) << info.name;
    EXPECT_NE(info.make(ps), nullptr);
  }
}

}  // namespace
}  // namespace pl

#include "core/io.hpp"

namespace pl {
namespace {

// Size-2 agents on the real benchmark maps: every cell of the footprint of every step is inside
// the capability, and the length is optimal for the canonical (clearance >= 2) problem.
TEST(AnnotatedAStar, Size2OnBenchmarkMapsStaysInsideTheCapability) {
  auto ann = make("annotated-astar");
  int checked = 0;
  for (const auto& scen_path : test::all_scen_files()) {
    Scenario scen = load_scen(scen_path);
    Scene sc;
    sc.map = load_map(resolve_scen_map(scen_path, scen.problems.at(0)));
    const CapabilityMask cap = sc.map.palette().movingai_default_capability();
    const ClearanceGrid cl = true_clearance(sc.map, cap);
    const int w = sc.map.width();
    // Every 40th problem: covers each file's length buckets.
    for (size_t i = 0; i < scen.problems.size(); i += 40) {
      const auto& p = scen.problems[i];
      PlanResult r = ann->plan(sc, cells(p.start_x, p.start_y, p.goal_x, p.goal_y, 2, cap));
      if (i % 400 == 0) {
        // Reachability and length against a plain Dijkstra on the canonical grid.
        const double ref = test::reference_dijkstra(
            w, sc.map.height(), [&](int x, int y) { return cl[size_t(y) * w + x] >= 2; },
            [](int, int) { return 1.0; }, p.start_x, p.start_y, p.goal_x, p.goal_y);
        ASSERT_EQ(r.found, std::isfinite(ref)) << scen_path << " problem " << i;
        if (r.found) {
          EXPECT_NEAR(r.length, ref, 1e-9);
        }
      }
      const bool endpoints_ok = cl[size_t(p.start_y) * sc.map.width() + p.start_x] >= 2 &&
                                cl[size_t(p.goal_y) * sc.map.width() + p.goal_x] >= 2;
      if (!endpoints_ok) {
        EXPECT_FALSE(r.found);
        continue;
      }
      if (!r.found) continue;
      ++checked;
      expect_valid_path(sc.map, r, 2, cap);
      EXPECT_GE(r.length, p.optimal - 1e-5 * p.optimal) << "a bigger agent cannot beat the optimum";
    }
  }
  // Some maps (8room: one-cell doors) admit no size-2 path between rooms; the rest must.
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace pl

// Mixed worlds (issue 5): grid planners treat the scene's circles as obstacles by their
// "circles" rule, and a scene without circles plans on its map as before.
TEST(GridPlannersAndCircles, CirclesBlockCellsByTheChosenRule) {
  using namespace pl;
  Scene s;
  s.map = GridMap(9, 3);
  for (int x = 0; x < 9; ++x) s.map.set(x, 0, 4), s.map.set(x, 2, 4);  // a one-cell corridor
  Query q;
  q.start = {0.5, 1.5, 0};
  q.goal = {8.5, 1.5, 0};
  const Registry& reg = Registry::builtin();
  for (const char* name : {"astar", "dijkstra", "annotated-astar", "astar-textbook"}) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(reg.create(name)->plan(s, q).found);
    // A circle whose disc covers the centre of cell (4, 1) closes the corridor...
    s.circles = {Circle{4.5, 1.5, 0.2}};
    EXPECT_FALSE(reg.create(name, {{"circles", "centre"}})->plan(s, q).found);
    EXPECT_FALSE(reg.create(name)->plan(s, q).found);  // centre is the default
    EXPECT_TRUE(reg.create(name, {{"circles", "ignore"}})->plan(s, q).found);
    // ...one that only grazes the cell (misses its centre) closes it only under "touch".
    s.circles = {Circle{4.0, 1.0, 0.3}};
    EXPECT_TRUE(reg.create(name, {{"circles", "centre"}})->plan(s, q).found);
    EXPECT_FALSE(reg.create(name, {{"circles", "touch"}})->plan(s, q).found);
    s.circles.clear();
  }
}
