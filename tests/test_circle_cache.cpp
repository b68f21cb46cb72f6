// The planner among circles with a graph cache (CircleGraphCache, issue 13): after random
// sequences of moves, resizes, additions and removals, a query through the cache gives the
// same graph and path, bit for bit, as one from scratch; and a one-circle move is an update in
// place, not a rebuild.
#include <gtest/gtest.h>

#include <random>

#include "core/scene.hpp"
#include "planners/circles.hpp"
#include "planners/planner.hpp"

namespace pl {
namespace {

#ifdef PATHLAB_SANITIZED
constexpr int kScale = 8;
#else
constexpr int kScale = 1;
#endif

void expect_same(const std::vector<Circle>& cs, const Query& q, CircleGraphMode mode,
                 CircleGraphCache& cache, CircleGraphStats* cached_stats = nullptr) {
  CirclePlanOptions o;
  o.mode = mode;
  CircleGraphStats sc, sf;
  const PlanResult a = plan_among_circles(cs, q, o, {}, &sc, &cache);
  // From scratch through an empty cache: circles are built whole, as through the kept one, so
  // the graphs can be compared node for node. Without a cache lazy mode builds a circle a
  // direction at a time (fewer nodes), with the same path.
  CircleGraphCache empty;
  const PlanResult b = plan_among_circles(cs, q, o, {}, &sf, &empty);
  const PlanResult c = plan_among_circles(cs, q, o, {});
  for (const PlanResult* r : {&b, &c}) {
    ASSERT_EQ(a.found, r->found);
    EXPECT_EQ(a.message, r->message);
    EXPECT_EQ(a.length, r->length);
    EXPECT_EQ(a.points, r->points);
    EXPECT_EQ(a.expanded, r->expanded);
  }
  EXPECT_EQ(sc.nodes, sf.nodes);
  // (surfing_edges counts tests passed: edges known from the cache are not tested again; the
  // nodes, two per free surfing edge, show that the same ones exist.)
  EXPECT_EQ(sc.hugging_tests, sf.hugging_tests);
  EXPECT_EQ(sc.hugging_edges, sf.hugging_edges);
  EXPECT_EQ(sc.circles_built, sf.circles_built);
  if (cached_stats) *cached_stats = sc;
}

// Forest `seed` of `count` circles, overlapping or apart.
CircleForest forest(int count, std::uint32_t seed, bool overlap) {
  CircleForestSpec spec;
  spec.count = count;
  spec.seed = seed;
  spec.overlap = overlap;
  return make_circle_forest(spec);
}

TEST(CircleCache, RandomEditsGiveTheSameGraphAsFromScratch) {
  std::mt19937 rng(9001);
  int in_place = 0, reused = 0, steps = 0;
  const int series = 24 / kScale + 1;
  for (int it = 0; it < series; ++it) {
    const CircleForest f = forest(40 + int(rng() % 260), std::uint32_t(100 + it), it % 2 == 0);
    std::vector<Circle> cs = f.circles;
    const CircleGraphMode mode = it % 4 == 3 ? CircleGraphMode::Eager : CircleGraphMode::Lazy;
    CircleGraphCache cache;
    std::uniform_real_distribution<double> pos(0, f.side), step(-2.5, 2.5), rad(1, 4);
    for (int e = 0; e < 30; ++e, ++steps) {
      SCOPED_TRACE("series " + std::to_string(it) + ", edit " + std::to_string(e));
      const unsigned what = rng() % 10;
      const std::size_t i = cs.empty() ? 0 : rng() % cs.size();
      if (cs.empty() || what == 0) {
        cs.push_back({pos(rng), pos(rng), rad(rng)});
      } else if (what == 1) {
        cs.erase(cs.begin() + long(i));
      } else if (what == 2) {
        cs[i].r = rad(rng);
      } else if (what == 3) {  // several at once
        for (int k = 0; k < 3; ++k) {
          Circle& c = cs[rng() % cs.size()];
          c.x += step(rng);
          c.y += step(rng);
        }
      } else if (what == 4) {  // onto another circle's boundary: touching exactly
        const Circle& o = cs[rng() % cs.size()];
        cs[i].x = o.x + o.r + cs[i].r;
        cs[i].y = o.y;
      } else {  // a drag step
        cs[i].x += step(rng);
        cs[i].y += step(rng);
      }
      // Now and then a new start and goal on the same circles (the cache does not depend on
      // them), or the same query again.
      Query q = f.query;
      if (what == 9) q.goal = {f.query.goal.x, f.query.goal.y - 3, 0};
      CircleGraphStats st;
      expect_same(cs, q, mode, cache, &st);
      in_place += st.cache_resets == 0;
      reused += st.circles_reused > 0;
    }
  }
  EXPECT_GT(in_place, steps / 2);  // moves and resizes update in place
  EXPECT_GT(reused, steps / 2);
}

TEST(CircleCache, AMoveResetsOnlyNearbyPairs) {
  CircleForestSpec spec;
  spec.count = 400;
  const CircleForest f = make_circle_forest(spec);
  std::vector<Circle> cs = f.circles;
  CircleGraphCache cache;
  CircleGraphStats first, second, third;
  expect_same(cs, f.query, CircleGraphMode::Eager, cache, &first);
  EXPECT_EQ(first.cache_resets, 1u);
  EXPECT_EQ(first.circles_reused, 0u);
  // The same circles again: everything known, no line of sight tested.
  expect_same(cs, f.query, CircleGraphMode::Eager, cache, &second);
  EXPECT_EQ(second.cache_resets, 0u);
  EXPECT_EQ(second.circles_reused, second.circles_built);
  EXPECT_EQ(second.pairs_reset, 0u);
  // One circle moved: its own pairs and the pairs passing near it, a small part of them all.
  cs[7].x += 1.5;
  expect_same(cs, f.query, CircleGraphMode::Eager, cache, &third);
  EXPECT_EQ(third.cache_resets, 0u);
  EXPECT_GT(third.pairs_reset, 0u);
  EXPECT_LT(third.pairs_reset, cs.size() * cs.size() / 10);
  EXPECT_LT(third.surfing_tests, first.surfing_tests / 2);
  // A new agent radius grows every circle: a rebuild.
  Query q = f.query;
  q.radius = 0.75;
  CircleGraphStats fourth;
  expect_same(cs, q, CircleGraphMode::Lazy, cache, &fourth);
  EXPECT_EQ(fourth.cache_resets, 1u);
}

// A drag through the middle of a dense forest: the dragged circle lies in the shadows of the
// circles the search builds around it, so every step drops some cached rows (their rejections
// may rest on it) and keeps the others. Each step must still equal a query from scratch, and
// a good part of the circles built must come from the cache (about 40% do on these forests of
// 300; the share grows with the forest, as the dragged circle's shadows stay local).
TEST(CircleCache, ADragThroughTheShadowsGivesTheSameGraph) {
  for (const bool overlap : {true, false}) {
    SCOPED_TRACE(overlap ? "overlapping" : "apart");
    CircleForestSpec spec;
    spec.count = 300;
    spec.overlap = overlap;
    const CircleForest f = make_circle_forest(spec);
    std::vector<Circle> cs = f.circles;
    const std::size_t dragged = circle_nearest_middle(f);
    const Vec2 home = cs[dragged].center();
    CircleGraphCache cache;
    std::size_t dropped = 0, reused = 0, built = 0;
    // The whole loop even under the sanitizers (about 2 s there): the share of circles reused
    // is a property of a long drag, and its first steps reuse less.
    const int steps = 48;
    for (int step = 0; step <= steps; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      const double a = double(step) * (kTwoPi / 48);
      cs[dragged].x = home.x + 3 * std::cos(a);
      cs[dragged].y = home.y + 3 * std::sin(a);
      CircleGraphStats st;
      expect_same(cs, f.query, CircleGraphMode::Lazy, cache, &st);
      if (step == 0) continue;
      EXPECT_EQ(st.cache_resets, 0u);
      dropped += st.circles_reset;
      reused += st.circles_reused;
      built += st.circles_built;
    }
    EXPECT_GT(dropped, 0u);        // the rows resting on the dragged circle were dropped ...
    EXPECT_GT(reused, built / 4);  // ... and the others kept
  }
}

// The cache keeps rows in sectors: a sector a query built is answered from the row the next
// time, and a slot it does not know free there counts as blocked. So a row kept after a move
// must not keep a stale bit: a circle that jumps (not a small drag step) into the middle of the
// search has new bitangents with circles whose rows are kept, often in sectors they have done,
// and the place it left may have been all that blocked some of their slots. Each jump must
// equal a query from scratch; and the jumps must matter (pairs made pending, paths changed).
TEST(CircleCache, JumpsIntoSectorsDoneLeaveNoStaleBit) {
  std::mt19937 rng(4242);
  std::size_t pending = 0, dropped = 0, changed = 0, jumps = 0;
  const int forests = 10 / kScale + 1;
  for (int it = 0; it < forests; ++it) {
    const CircleForest f = forest(120 + int(rng() % 120), std::uint32_t(500 + it), it % 2 == 0);
    std::vector<Circle> cs = f.circles;
    const CircleGraphMode mode = it % 5 == 4 ? CircleGraphMode::Eager : CircleGraphMode::Lazy;
    const Vec2 s = f.query.start.position(), g = f.query.goal.position();
    std::uniform_real_distribution<double> along(0.1, 0.9), off(-8, 8), rad(1, 4);
    CircleGraphCache cache;
    double last = -1;
    for (int e = 0; e < 16; ++e, ++jumps) {
      SCOPED_TRACE("forest " + std::to_string(it) + ", jump " + std::to_string(e));
      // One or two circles to a place near the start-goal line, where the search goes.
      for (int m = 0; m < 1 + int(rng() % 2); ++m) {
        Circle& c = cs[rng() % cs.size()];
        const Vec2 p = s + (g - s) * along(rng);
        c = {p.x, p.y + off(rng), rad(rng)};
      }
      CircleGraphStats st;
      expect_same(cs, f.query, mode, cache, &st);
      if (e == 0) continue;
      pending += st.pairs_reset;
      dropped += st.circles_reset;
      const PlanResult now = plan_among_circles(cs, f.query, {}, {});
      changed += now.length != last;
      last = now.length;
    }
  }
  EXPECT_GT(pending, jumps);
  EXPECT_GT(dropped, 0u);
  EXPECT_GT(changed, jumps / 4);  // about a third of the jumps move the path
}

// The registry's planner keeps a cache between queries: a scene edited by one circle replans
// from it, with the same result as a fresh planner, and says so in its stats.
TEST(CircleCache, ThePlannerKeepsOne) {
  CircleForestSpec spec;
  spec.count = 150;
  const CircleForest f = make_circle_forest(spec);
  Scene scene;
  scene.circles = f.circles;
  auto stat = [](const PlanResult& r, const std::string& name) {
    for (const auto& [k, v] : r.stats)
      if (k == name) return v;
    return -1.0;
  };
  auto kept = Registry::builtin().create("circles", {});
  const PlanResult first = kept->plan(scene, f.query, {});
  EXPECT_EQ(stat(first, "circles reused"), 0);
  EXPECT_GT(kept->memory_bytes(), 0u);
  scene.circles[3].y += 0.75;
  const PlanResult again = kept->plan(scene, f.query, {});
  const PlanResult fresh = Registry::builtin().create("circles", {})->plan(scene, f.query, {});
  EXPECT_GT(stat(again, "circles reused"), 0);
  EXPECT_EQ(stat(fresh, "circles reused"), 0);
  ASSERT_EQ(again.found, fresh.found);
  EXPECT_EQ(again.length, fresh.length);
  EXPECT_EQ(again.points, fresh.points);
  EXPECT_EQ(again.expanded, fresh.expanded);
}

}  // namespace
}  // namespace pl
