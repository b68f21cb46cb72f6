// The planner among circles (planners/circles.hpp): hand-computed answers, an independent
// reference (the article's graph with hugging edges between every pair of endpoints, searched by
// Dijkstra), and properties on thousands of seeded random forests.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <queue>
#include <random>

#include "core/circle_geometry.hpp"
#include "core/error.hpp"
#include "planners/circles.hpp"
#include "planners/grid_world.hpp"
#include "viz/trace.hpp"

namespace pl {
namespace {

#ifdef PATHLAB_SANITIZED
constexpr int kScale = 8;  // ASan/UBSan runs are ~10x slower: fewer random forests
#else
constexpr int kScale = 1;
#endif

Query query(Vec2 s, Vec2 g, double radius = 0) {
  Query q;
  q.start = {s.x, s.y, 0};
  q.goal = {g.x, g.y, 0};
  q.radius = radius;
  return q;
}

PlanResult plan(const std::vector<Circle>& cs, const Query& q, CircleGraphMode mode,
                CircleGraphStats* st = nullptr, SearchObserver* obs = nullptr) {
  CirclePlanOptions o;
  o.mode = mode;
  RunContext ctx;
  ctx.observer = obs;
  return plan_among_circles(cs, q, o, ctx, st);
}

// The length of the path from s to g that wraps around circle c alone, on the side where the
// angle from c's centre grows from s's direction to g's (dir +1) or shrinks (dir -1).
double wrap_length(Vec2 s, Vec2 g, const Circle& c, int dir) {
  const double ds = distance(s, c.center()), dg = distance(g, c.center());
  const double as = angle_of(s - c.center()), ag = angle_of(g - c.center());
  const double span = std::abs(sweep_between(as, ag, dir));
  const double arc = span - std::acos(c.r / ds) - std::acos(c.r / dg);
  return std::sqrt(ds * ds - c.r * c.r) + std::sqrt(dg * dg - c.r * c.r) + c.r * arc;
}

// Pieces join end to start, turn smoothly (a shortest path has no corners off the start and
// goal) and add up to the length; points start and end at the query's ends.
void expect_well_formed(const PlanResult& r, const Query& q) {
  ASSERT_TRUE(r.found);
  ASSERT_FALSE(r.pieces.empty());
  double len = 0;
  auto start_of = [](const PathPiece& p) {
    return p.kind == PathPiece::Kind::Line ? p.line.a : p.arc.start();
  };
  auto end_of = [](const PathPiece& p) {
    return p.kind == PathPiece::Kind::Line ? p.line.b : p.arc.end();
  };
  auto heading = [](const PathPiece& p, bool end) {
    if (p.kind == PathPiece::Kind::Line) return angle_of(p.line.b - p.line.a);
    return normalize_angle((end ? p.arc.end_angle() : p.arc.start_angle) +
                           (p.arc.sweep >= 0 ? kPi / 2 : -kPi / 2));
  };
  for (size_t i = 0; i < r.pieces.size(); ++i) {
    len += r.pieces[i].length();
    if (i == 0) continue;
    const PathPiece &a = r.pieces[i - 1], &b = r.pieces[i];
    EXPECT_LT(distance(end_of(a), start_of(b)), 1e-7) << "piece " << i;
    EXPECT_NE(a.kind, b.kind) << "pieces alternate, piece " << i;
    if (a.length() > 1e-6 && b.length() > 1e-6) {
      const double turn = std::abs(std::remainder(heading(a, true) - heading(b, false), kTwoPi));
      EXPECT_LT(turn, 1e-6) << "corner at piece " << i;
    }
  }
  EXPECT_NEAR(len, r.length, 1e-9 * std::max(1.0, r.length));
  EXPECT_LT(distance(start_of(r.pieces.front()), q.start.position()), 1e-9);
  EXPECT_LT(distance(end_of(r.pieces.back()), q.goal.position()), 1e-9);
  ASSERT_GE(r.points.size(), 2u);
  EXPECT_EQ(r.points.front().position(), q.start.position());
  EXPECT_EQ(r.points.back().position(), q.goal.position());
}

// Smallest clearance (distance to a grown circle's boundary, negative inside) along the path,
// sampled every `step` map units.
double min_clearance(const PlanResult& r, const std::vector<Circle>& cs, double radius,
                     double step = 0.02) {
  double worst = std::numeric_limits<double>::infinity();
  auto check = [&](Vec2 p) {
    for (const Circle& c : cs) worst = std::min(worst, distance(p, c.center()) - (c.r + radius));
  };
  for (const PathPiece& p : r.pieces) {
    if (p.kind == PathPiece::Kind::Arc) {
      for (Vec2 v : sample_arc(p.arc, step)) check(v);
    } else {
      const int n = std::max(1, int(std::ceil(p.line.length() / step)));
      for (int i = 0; i <= n; ++i) check(p.line.a + (p.line.b - p.line.a) * (double(i) / n));
    }
  }
  return worst;
}

TEST(CirclePlanner, OneCircleBetweenStartAndGoal) {
  // d = 10 from the centre to each end, r = 3: two tangents of sqrt(d^2 - r^2) and the arc
  // between the tangent points, pi - 2 acos(r / d) radians of radius r.
  const std::vector<Circle> cs = {{10, 10, 3}};
  const Query q = query({0, 10}, {20, 10});
  const double expect = 2 * std::sqrt(100.0 - 9) + 3 * (kPi - 2 * std::acos(0.3));
  for (CircleGraphMode mode : {CircleGraphMode::Lazy, CircleGraphMode::Eager}) {
    const PlanResult r = plan(cs, q, mode);
    expect_well_formed(r, q);
    EXPECT_NEAR(r.length, expect, 1e-9);
    ASSERT_EQ(r.pieces.size(), 3u);
    EXPECT_EQ(r.pieces[1].kind, PathPiece::Kind::Arc);
    EXPECT_NEAR(r.pieces[1].length(), 3 * (kPi - 2 * std::acos(0.3)), 1e-9);  // as an arc
    EXPECT_NEAR(r.pieces[0].length(), std::sqrt(91.0), 1e-9);
    // The sampled points follow the arc, no further apart than the step (0.25 by default).
    ASSERT_GE(r.points.size(), 4u);
    for (size_t i = 1; i + 1 < r.points.size(); ++i) {
      EXPECT_NEAR(distance(r.points[i].position(), {10, 10}), 3, 1e-9);
      if (i > 1) {
        EXPECT_LE(distance(r.points[i - 1].position(), r.points[i].position()), 0.25 + 1e-9);
      }
    }
  }
  // The agent's radius grows the obstacle: r = 2 with a radius-1 agent is the r = 3 answer.
  const PlanResult grown = plan({{10, 10, 2}}, query({0, 10}, {20, 10}, 1), CircleGraphMode::Lazy);
  EXPECT_NEAR(grown.length, expect, 1e-9);
}

// Lazy mode builds a ring a sector (an eighth of a turn) at a time: a hugging edge whose target
// lies several sectors on must still be found, across sectors holding no departure. The path
// wraps nearly half of a large circle (4 sectors); far circles give the ring departures in
// other sectors, which the search never needs.
TEST(CirclePlanner, AHugAcrossEmptySectorsOfItsRing) {
  const Circle big{0, 0, 20};
  const std::vector<Circle> cs = {big, {0, 70, 2}, {0, -70, 2}, {60, 60, 3}, {-60, -60, 3}};
  const Query q = query({-20.5, 0.2}, {20.5, 0.3});
  const double expect = std::min(wrap_length({-20.5, 0.2}, {20.5, 0.3}, big, 1),
                                 wrap_length({-20.5, 0.2}, {20.5, 0.3}, big, -1));
  CircleGraphStats sl, se;
  const PlanResult lazy = plan(cs, q, CircleGraphMode::Lazy, &sl);
  const PlanResult eager = plan(cs, q, CircleGraphMode::Eager, &se);
  ASSERT_TRUE(lazy.found);
  EXPECT_NEAR(lazy.length, expect, 1e-9);
  EXPECT_EQ(lazy.length, eager.length);
  EXPECT_EQ(lazy.points, eager.points);
  EXPECT_EQ(lazy.expanded, eager.expanded);
  EXPECT_LT(sl.nodes, se.nodes);  // the big circle's other sectors were never built
}

// Sparse rings (a few large circles, start and goal close to them): the first departure after
// an arrival is often sectors away. Lazy mode (sector by sector) against eager mode and against
// lazy mode through an empty cache (circles built whole): the same path, expansions and, for
// the whole builds, a superset of the nodes.
TEST(CirclePlanner, SectorBuildsGiveTheWholeBuildsPath) {
  std::mt19937 rng(1313);
  std::uniform_real_distribution<double> pos(0, 60), rad(2, 15);
  int found = 0;
  const int forests = 400 / kScale;
  for (int it = 0; it < forests; ++it) {
    std::vector<Circle> cs;
    const int n = 2 + int(rng() % 10);
    for (int i = 0; i < n; ++i) cs.push_back({pos(rng), pos(rng), rad(rng)});
    auto outside = [&](Vec2 p) {
      for (const Circle& c : cs)
        if (distance(p, c.center()) <= c.r) return false;
      return true;
    };
    auto free_point = [&] {
      for (;;) {
        const Vec2 p{pos(rng), pos(rng)};
        if (outside(p)) return p;
      }
    };
    const Vec2 s = free_point(), g = free_point();
    const Query q = query(s, g, double(rng() % 3) * 0.25);
    SCOPED_TRACE("forest " + std::to_string(it));
    CircleGraphStats sl, sw;
    const PlanResult lazy = plan(cs, q, CircleGraphMode::Lazy, &sl);
    const PlanResult eager = plan(cs, q, CircleGraphMode::Eager);
    CircleGraphCache empty;
    const PlanResult whole = plan_among_circles(cs, q, {}, {}, &sw, &empty);
    for (const PlanResult* r : {&eager, &whole}) {
      ASSERT_EQ(lazy.found, r->found);
      EXPECT_EQ(lazy.length, r->length);
      EXPECT_EQ(lazy.points, r->points);
      EXPECT_EQ(lazy.expanded, r->expanded);
    }
    EXPECT_LE(sl.nodes, sw.nodes);
    found += lazy.found;
  }
  EXPECT_GT(found, forests / 2);
}

TEST(CirclePlanner, StraightLineWhenNothingIsInTheWay) {
  const std::vector<Circle> cs = {{10, 20, 3}, {30, 0, 2}};
  const Query q = query({0, 10}, {40, 10});
  for (CircleGraphMode mode : {CircleGraphMode::Lazy, CircleGraphMode::Eager}) {
    const PlanResult r = plan(cs, q, mode);
    expect_well_formed(r, q);
    EXPECT_NEAR(r.length, 40, 1e-12);
    EXPECT_EQ(r.pieces.size(), 1u);
  }
  // No circles at all, and start == goal.
  PlanResult r = plan({}, query({1, 2}, {4, 6}), CircleGraphMode::Lazy);
  EXPECT_NEAR(r.length, 5, 1e-12);
  r = plan(cs, query({1, 2}, {1, 2}), CircleGraphMode::Eager);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.length, 0);
  EXPECT_EQ(r.pieces.size(), 1u);
}

TEST(CirclePlanner, TouchingCirclesAreAWall) {
  // Two r = 2 circles touching at (10, 10), right on the straight line: the path goes around
  // the pair, wrapping the upper (or, equally long, the lower) one.
  const std::vector<Circle> cs = {{10, 8, 2}, {10, 12, 2}};
  const Query q = query({0, 10}, {20, 10});
  const double expect = wrap_length({0, 10}, {20, 10}, cs[0], 1);
  EXPECT_GT(expect, 20.5);
  for (CircleGraphMode mode : {CircleGraphMode::Lazy, CircleGraphMode::Eager}) {
    const PlanResult r = plan(cs, q, mode);
    expect_well_formed(r, q);
    EXPECT_NEAR(r.length, expect, 1e-9);
    EXPECT_GE(min_clearance(r, cs, 0), -1e-9);
  }
}

TEST(CirclePlanner, AgentRadiusClosesAGap) {
  // Centres 4.2 apart, r = 2: a gap of 0.2. An agent of radius < 0.1 goes straight through; at
  // 0.1 the grown circles touch (a wall); beyond they overlap. Then the path wraps one circle.
  const std::vector<Circle> cs = {{10, 7.9, 2}, {10, 12.1, 2}};
  const Query q = query({0, 10}, {20, 10});
  for (double radius : {0.0, 0.05, 0.099}) {
    const PlanResult r = plan(cs, query({0, 10}, {20, 10}, radius), CircleGraphMode::Lazy);
    EXPECT_NEAR(r.length, 20, 1e-12) << radius;
  }
  for (double radius : {0.1, 0.15, 1.0}) {
    SCOPED_TRACE(radius);
    const Circle up{10, 7.9, 2 + radius};
    const double expect = wrap_length({0, 10}, {20, 10}, up, 1);
    for (CircleGraphMode mode : {CircleGraphMode::Lazy, CircleGraphMode::Eager}) {
      Query qr = q;
      qr.radius = radius;
      const PlanResult r = plan(cs, qr, mode);
      expect_well_formed(r, qr);
      EXPECT_NEAR(r.length, expect, 1e-9);
      EXPECT_GE(min_clearance(r, cs, radius), -1e-9);
    }
  }
}

TEST(CirclePlanner, CircleInsideAnother) {
  // The small circle inside the big one changes nothing; it is dropped as redundant.
  const std::vector<Circle> cs = {{11, 10, 1}, {10, 10, 3}, {10, 10, 3}};
  const Query q = query({0, 10}, {20, 10});
  const double expect = 2 * std::sqrt(100.0 - 9) + 3 * (kPi - 2 * std::acos(0.3));
  for (CircleGraphMode mode : {CircleGraphMode::Lazy, CircleGraphMode::Eager}) {
    CircleGraphStats st;
    const PlanResult r = plan(cs, q, mode, &st);
    expect_well_formed(r, q);
    EXPECT_NEAR(r.length, expect, 1e-9);
    EXPECT_EQ(st.redundant, 2u);  // the small one and the duplicate
    EXPECT_EQ(st.circles, 1u);
  }
}

TEST(CirclePlanner, OverlappingCirclesCullCoveredEndpointsAndArcs) {
  // Three overlapping circles in a row across the straight line: the path wraps the chain; no
  // point of it is inside any circle, and it is never shorter than wrapping the hull's ends.
  const std::vector<Circle> cs = {{10, 4, 3}, {10, 9, 3}, {10, 14, 3}};
  const Query q = query({0, 9}, {20, 9});
  for (CircleGraphMode mode : {CircleGraphMode::Lazy, CircleGraphMode::Eager}) {
    const PlanResult r = plan(cs, q, mode);
    expect_well_formed(r, q);
    EXPECT_GE(min_clearance(r, cs, 0), -1e-9);
    // Around the top or bottom circle alone would be shorter but goes through the middle one.
    EXPECT_GT(r.length, wrap_length({0, 9}, {20, 9}, cs[0], 1) - 1e-9);
  }
}

TEST(CirclePlanner, StartOrGoalInsideAnObstacle) {
  const std::vector<Circle> cs = {{30, 30, 1}, {10, 10, 3}};
  PlanResult r = plan(cs, query({10, 11}, {50, 50}), CircleGraphMode::Lazy);
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.message, "start is inside obstacle 1");
  r = plan(cs, query({0, 0}, {30.5, 30}), CircleGraphMode::Eager);
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.message, "goal is inside obstacle 0");
  // Outside the circle, but inside it once it is grown by the agent's radius.
  r = plan(cs, query({13.5, 10}, {0, 0}, 1), CircleGraphMode::Lazy);
  EXPECT_EQ(r.message, "start is inside obstacle 1");
  // On the boundary is outside: the path leaves along the tangent.
  r = plan(cs, query({13, 10}, {20, 10}), CircleGraphMode::Lazy);
  EXPECT_TRUE(r.found);
  EXPECT_NEAR(r.length, 7, 1e-12);
  r = plan(cs, query({13, 10}, {7, 10}), CircleGraphMode::Lazy);
  ASSERT_TRUE(r.found);
  EXPECT_NEAR(r.length, 3 * kPi, 1e-9);  // half way round
}

TEST(CirclePlanner, EnclosedGoalHasNoPath) {
  // A ring of overlapping circles around the goal.
  std::vector<Circle> cs;
  for (int i = 0; i < 12; ++i)
    cs.push_back({50 + 10 * std::cos(i * kPi / 6), 50 + 10 * std::sin(i * kPi / 6), 3});
  for (CircleGraphMode mode : {CircleGraphMode::Lazy, CircleGraphMode::Eager}) {
    const PlanResult r = plan(cs, query({0, 0}, {50, 50}), mode);
    EXPECT_FALSE(r.found);
    EXPECT_FALSE(r.message.empty());
  }
  // A smaller agent slips through once the circles no longer touch: 10 * 2 sin(15 deg) = 5.18
  // between neighbours' centres, so circles of radius 2.5 leave gaps.
  for (Circle& c : cs) c.r = 2.5;
  EXPECT_TRUE(plan(cs, query({0, 0}, {50, 50}), CircleGraphMode::Lazy).found);
  EXPECT_FALSE(plan(cs, query({0, 0}, {50, 50}, 0.1), CircleGraphMode::Lazy).found);
}

// ---- An independent reference: the article's graph --------------------------------------------

// Nodes: start, goal and every bitangent / tangent endpoint with line of sight (checked against
// every circle, no grid); hugging edges between *every* pair of endpoints on a circle with the
// same direction; Dijkstra. Exponentially more edges than the planner's chains, same answer.
double reference_length(const std::vector<Circle>& grown, Vec2 s, Vec2 g) {
  struct N {
    Vec2 p;
    int circle;
    double angle;
    int dir;
    bool departure;
  };
  std::vector<N> nodes = {{s, -1, 0, 0, false}, {g, -1, 0, 0, false}};
  std::vector<std::vector<std::pair<int, double>>> adj(2);
  auto add = [&](N n) {
    nodes.push_back(n);
    adj.emplace_back();
    return int(nodes.size()) - 1;
  };
  auto free_segment = [&](Vec2 a, Vec2 b, int skip1, int skip2) {
    for (int k = 0; k < int(grown.size()); ++k) {
      if (k == skip1 || k == skip2) continue;
      const SegmentDistance sd = segment_point_distance(a, b, grown[size_t(k)].center());
      if (sd.distance < grown[size_t(k)].r - kCircleEps) return false;
      if (sd.distance <= grown[size_t(k)].r + kCircleEps)
        for (int m = 0; m < int(grown.size()); ++m)
          if (m != k &&
              distance(sd.closest, grown[size_t(m)].center()) <= grown[size_t(m)].r + kCircleEps)
            return false;
    }
    return true;
  };
  if (free_segment(s, g, -1, -1)) adj[0].push_back({1, distance(s, g)});
  const int n = int(grown.size());
  for (int a = 0; a < n; ++a) {
    std::array<PointTangent, 2> pt;
    for (int i = 0, m = point_tangents(s, grown[size_t(a)], pt); i < m; ++i)
      if (free_segment(s, pt[size_t(i)].point, a, -1)) {
        const int v = add({pt[size_t(i)].point, a, pt[size_t(i)].angle, pt[size_t(i)].dir, false});
        adj[0].push_back({v, distance(s, pt[size_t(i)].point)});
      }
    for (int i = 0, m = point_tangents(g, grown[size_t(a)], pt); i < m; ++i)
      if (free_segment(pt[size_t(i)].point, g, a, -1)) {
        const int v = add({pt[size_t(i)].point, a, pt[size_t(i)].angle, -pt[size_t(i)].dir, true});
        adj[size_t(v)].push_back({1, distance(g, pt[size_t(i)].point)});
      }
    for (int b = a + 1; b < n; ++b) {
      const Bitangents bt = bitangents(grown[size_t(a)], grown[size_t(b)]);
      for (int i = 0; i < 4; ++i) {
        if (!bt.ok[size_t(i)]) continue;
        const Bitangent& t = bt.t[size_t(i)];
        if (!free_segment(t.a, t.b, a, b)) continue;
        // a -> b and b -> a.
        const int da = add({t.a, a, t.angle_a, t.dir_a, true});
        const int ab = add({t.b, b, t.angle_b, t.dir_b, false});
        adj[size_t(da)].push_back({ab, t.length()});
        const int db = add({t.b, b, t.angle_b, -t.dir_b, true});
        const int aa = add({t.a, a, t.angle_a, -t.dir_a, false});
        adj[size_t(db)].push_back({aa, t.length()});
      }
    }
  }
  // Hugging: every arrival to every departure on the same circle, same direction.
  for (size_t i = 2; i < nodes.size(); ++i) {
    if (nodes[i].departure) continue;
    for (size_t j = 2; j < nodes.size(); ++j) {
      if (!nodes[j].departure || nodes[j].circle != nodes[i].circle || nodes[j].dir != nodes[i].dir)
        continue;
      const Circle& c = grown[size_t(nodes[i].circle)];
      const Arc arc = arc_between(c, nodes[i].angle, nodes[j].angle, nodes[i].dir);
      bool ok = true;
      for (int k = 0; k < n && ok; ++k)
        if (k != nodes[i].circle) ok = !arc_blocked_by(arc, grown[size_t(k)]);
      if (ok) adj[i].push_back({int(j), arc.length()});
    }
  }
  std::vector<double> dist(nodes.size(), std::numeric_limits<double>::infinity());
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  dist[0] = 0;
  pq.push({0, 0});
  while (!pq.empty()) {
    auto [d, v] = pq.top();
    pq.pop();
    if (d > dist[size_t(v)]) continue;
    if (v == 1) return d;
    for (auto [w, c] : adj[size_t(v)])
      if (d + c < dist[size_t(w)]) {
        dist[size_t(w)] = d + c;
        pq.push({d + c, w});
      }
  }
  return std::numeric_limits<double>::infinity();
}

struct Forest {
  std::vector<Circle> circles;
  Query q;
};

// n circles of radius 1..r_max in a 100 x 100 square (overlapping freely), a random agent
// radius, start and goal outside every grown circle.
Forest random_forest(std::mt19937& rng, int n, double r_max) {
  std::uniform_real_distribution<double> pos(0, 100), rad(1, r_max), agent(0, 2);
  Forest f;
  for (int i = 0; i < n; ++i) f.circles.push_back({pos(rng), pos(rng), rad(rng)});
  const double radius = rng() % 3 == 0 ? 0.0 : agent(rng);
  auto free_point = [&] {
    for (;;) {
      const Vec2 p{pos(rng), pos(rng)};
      bool ok = true;
      for (const Circle& c : f.circles) ok &= distance(p, c.center()) > c.r + radius + 1e-6;
      if (ok) return p;
    }
  };
  const Vec2 s = free_point(), g = free_point();
  f.q = query(s, g, radius);
  return f;
}

std::vector<Circle> grown_circles(const std::vector<Circle>& cs, double radius) {
  std::vector<Circle> out;
  for (const Circle& c : cs) out.push_back({c.x, c.y, c.r + radius});
  return out;
}

TEST(CirclePlanner, MatchesTheArticlesAllPairsGraph) {
  std::mt19937 rng(2024);
  int found = 0, total = 0;
  for (int it = 0; it < 600 / kScale; ++it) {
    const int n = 1 + int(rng() % 14);
    const Forest f = random_forest(rng, n, it % 2 ? 12 : 6);
    SCOPED_TRACE("forest " + std::to_string(it));
    const double ref = reference_length(grown_circles(f.circles, f.q.radius), f.q.start.position(),
                                        f.q.goal.position());
    const PlanResult r = plan(f.circles, f.q, CircleGraphMode::Lazy);
    ++total;
    ASSERT_EQ(r.found, std::isfinite(ref));
    if (!r.found) continue;
    ++found;
    EXPECT_NEAR(r.length, ref, 1e-9 * std::max(1.0, ref));
  }
  EXPECT_GT(found, total / 2);  // the forests are not all walls
}

// Culling by the neighbours' shadows is exact: with it on or off the planner builds the same
// graph (nodes, free surfing edges, hugging tests) and returns the same path, bit for bit, and
// it never tests more. Forests of every density, with exact touching (integer centres and
// radii), random agent radii, up to 400 circles, both modes.
TEST(CirclePlanner, CullingChangesNoGraphAndNoPath) {
  std::mt19937 rng(4242);
  int culled = 0, compared = 0;
  const int forests = 240 / kScale;
  for (int it = 0; it < forests; ++it) {
    std::vector<Circle> cs;
    Query q;
    const int kind = it % 3;
    if (kind == 0) {  // the benchmark's forests, up to 400 circles
      CircleForestSpec spec;
      spec.count = 20 + int(rng() % 380);
      spec.seed = std::uint32_t(it + 1);
      spec.overlap = it % 2 == 0;
      spec.agent_radius = double(rng() % 4) * 0.25;
      const CircleForest f = make_circle_forest(spec);
      cs = f.circles;
      q = f.query;
    } else {  // integer centres and radii: many circles touch exactly; point agent
      const int side = 10 + int(rng() % 30);
      const int n = int(rng() % 80);
      for (int i = 0; i < n; ++i)
        cs.push_back({double(rng() % unsigned(side)), double(rng() % unsigned(side)),
                      kind == 1 ? 1.0 : double(1 + rng() % 3) * 0.5});
      q = query({-2.0, double(rng() % unsigned(side))},
                {side + 2.0, double(rng() % unsigned(side))}, 0);
    }
    SCOPED_TRACE("forest " + std::to_string(it) + ", " + std::to_string(cs.size()) + " circles");
    for (const CircleGraphMode mode : {CircleGraphMode::Lazy, CircleGraphMode::Eager}) {
      if (mode == CircleGraphMode::Eager && cs.size() > 150) continue;
      CirclePlanOptions on, off;
      on.mode = off.mode = mode;
      off.cull = false;
      CircleGraphStats son, soff;
      const PlanResult a = plan_among_circles(cs, q, on, {}, &son);
      const PlanResult b = plan_among_circles(cs, q, off, {}, &soff);
      ASSERT_EQ(a.found, b.found);
      EXPECT_EQ(a.length, b.length);
      EXPECT_EQ(a.points, b.points);
      EXPECT_EQ(a.expanded, b.expanded);
      EXPECT_EQ(son.nodes, soff.nodes);
      EXPECT_EQ(son.surfing_edges, soff.surfing_edges);
      EXPECT_EQ(son.hugging_tests, soff.hugging_tests);
      EXPECT_EQ(son.hugging_edges, soff.hugging_edges);
      EXPECT_EQ(son.circles_built, soff.circles_built);
      EXPECT_LE(son.surfing_tests, soff.surfing_tests);
      EXPECT_EQ(soff.surfing_culled, 0u);
      culled += son.surfing_tests < soff.surfing_tests;
      ++compared;
    }
  }
  EXPECT_GT(culled, compared / 2);  // the culling does cull
}

// A goal exactly on a circle's boundary has tangents of no length from that circle: their
// direction of departure cannot be read off the segment, and a sector's shadow serves one
// direction. Whatever the other direction's bins hold (other sectors, other circles), such a
// departure must not be culled: lazy mode (sector shadows) against eager mode (whole ones)
// and against no culling, on overlapping integer forests, where shadows hold many bounds of
// length 0 (points inside a neighbour).
TEST(CirclePlanner, AGoalOnABoundaryKeepsItsDepartures) {
  std::mt19937 rng(1313);
  int on_boundary = 0;
  const int forests = 400 / kScale;
  for (int it = 0; it < forests; ++it) {
    const int side = 12 + int(rng() % 20);
    const int n = 10 + int(rng() % 60);
    std::vector<Circle> cs;
    for (int i = 0; i < n; ++i)
      cs.push_back({double(rng() % unsigned(side)), double(rng() % unsigned(side)),
                    double(1 + rng() % 3)});
    // The goal on the boundary of a circle at one of its four axis points (exact).
    const Circle& c = cs[rng() % cs.size()];
    const int axis = int(rng() % 4);
    const Vec2 g{c.x + (axis == 0 ? c.r : axis == 1 ? -c.r : 0.0),
                 c.y + (axis == 2 ? c.r : axis == 3 ? -c.r : 0.0)};
    const Query q = query({-3.0, double(rng() % unsigned(side))}, g, 0);
    SCOPED_TRACE("forest " + std::to_string(it) + ", " + std::to_string(n) + " circles");
    CirclePlanOptions lazy, eager, plain;
    eager.mode = CircleGraphMode::Eager;
    plain.cull = false;
    const PlanResult a = plan_among_circles(cs, q, lazy);
    const PlanResult b = plan_among_circles(cs, q, eager);
    const PlanResult x = plan_among_circles(cs, q, plain);
    ASSERT_EQ(a.found, b.found);
    ASSERT_EQ(a.found, x.found);
    EXPECT_EQ(a.message, b.message);
    EXPECT_EQ(a.length, b.length);
    EXPECT_EQ(a.length, x.length);
    EXPECT_EQ(a.points, b.points);
    EXPECT_EQ(a.expanded, x.expanded);
    on_boundary += a.found;
  }
  EXPECT_GT(on_boundary, forests / 4);  // most goals are reachable
}

TEST(CirclePlanner, RandomForestProperties) {
  std::mt19937 rng(77);
  int found = 0, detours = 0;
  const int forests = 2000 / kScale;
  for (int it = 0; it < forests; ++it) {
    const int n = int(rng() % 40);
    const Forest f = random_forest(rng, n, it % 3 == 0 ? 15 : 7);
    SCOPED_TRACE("forest " + std::to_string(it) + ", " + std::to_string(n) + " circles");
    CircleGraphStats se, sl;
    const PlanResult eager = plan(f.circles, f.q, CircleGraphMode::Eager, &se);
    const PlanResult lazy = plan(f.circles, f.q, CircleGraphMode::Lazy, &sl);
    // Eager and lazy: the same graph, searched the same way.
    ASSERT_EQ(eager.found, lazy.found);
    EXPECT_EQ(eager.expanded, lazy.expanded);
    // Lazy finds a subset of eager's edges. (Not necessarily fewer tests: a pair is culled
    // by the shadow of whichever of its circles is built first, which differs between modes.)
    EXPECT_LE(sl.surfing_edges, se.surfing_edges);
    EXPECT_LE(sl.nodes, se.nodes);
    if (!lazy.found) continue;
    ++found;
    EXPECT_EQ(eager.length, lazy.length);
    EXPECT_EQ(eager.points, lazy.points);
    expect_well_formed(lazy, f.q);
    // Never inside a grown circle, never shorter than the straight line.
    EXPECT_GE(min_clearance(lazy, f.circles, f.q.radius), -1e-7);
    const double straight = distance(f.q.start.position(), f.q.goal.position());
    EXPECT_GE(lazy.length, straight - 1e-9);
    detours += lazy.length > straight + 1e-9;
    // Removing a circle never makes the path longer.
    if (!f.circles.empty()) {
      std::vector<Circle> fewer = f.circles;
      fewer.erase(fewer.begin() + long(rng() % fewer.size()));
      const PlanResult r2 =
          plan(fewer, f.q, it % 2 ? CircleGraphMode::Lazy : CircleGraphMode::Eager);
      ASSERT_TRUE(r2.found);
      EXPECT_LE(r2.length, lazy.length + 1e-9 * lazy.length);
    }
    if (HasFailure()) return;
  }
  EXPECT_GT(found, forests / 2);
  EXPECT_GT(detours, found / 4);  // the circles are actually in the way
}

// ---- The hook ---------------------------------------------------------------------------------

TEST(CirclePlanner, WatchingShowsTheGraphAndChangesNothing) {
  std::mt19937 rng(9);
  const Forest f = [&] {
    for (;;) {
      Forest g = random_forest(rng, 30, 8);
      if (plan(g.circles, g.q, CircleGraphMode::Lazy).found) return g;
    }
  }();
  for (CircleGraphMode mode : {CircleGraphMode::Lazy, CircleGraphMode::Eager}) {
    SCOPED_TRACE(mode == CircleGraphMode::Lazy ? "lazy" : "eager");
    CircleGraphStats st;
    const PlanResult plain = plan(f.circles, f.q, mode);
    TraceRecorder rec;
    const PlanResult watched = plan(f.circles, f.q, mode, &st, &rec);
    EXPECT_EQ(watched.length, plain.length);
    EXPECT_EQ(watched.points, plain.points);
    EXPECT_EQ(watched.expanded, plain.expanded);
    const Trace trace = rec.take();
    TraceCursor end(trace);
    end.seek(trace.frame_count() - 1);
    const FrameState& s = end.state();
    // Every surfing and hugging test was reported, rejected ones with the circle that rejected
    // them; the edges the search touched are marked apart.
    EXPECT_EQ(s.counters().tests_passed, st.surfing_edges + st.hugging_edges);
    EXPECT_EQ(s.counters().tests_failed,
              (st.surfing_tests - st.surfing_edges) + (st.hugging_tests - st.hugging_edges));
    std::size_t candidates = 0, obstacles = 0;
    for (const ShapeRecord& r : s.shapes()) {
      if (r.is_test) {
        EXPECT_EQ(r.ok, r.shape.tag == kNoNode);
        if (!r.ok) {
          EXPECT_LT(r.shape.tag, f.circles.size());
        }
      }
      candidates += !r.is_test && r.role == Role::Candidate;
      obstacles += !r.is_test && r.role == Role::Obstacle;
    }
    EXPECT_GT(candidates, 0u);
    EXPECT_GT(obstacles, 0u);
    EXPECT_EQ(s.counters().expanded, plain.expanded);
    ASSERT_EQ(s.path().size(), plain.pieces.size());
    std::vector<std::string> phases;
    for (auto& p : trace.phases()) phases.push_back(p.name);
    if (mode == CircleGraphMode::Eager) {
      EXPECT_EQ(phases, (std::vector<std::string>{"prepare", "graph: surfing edges",
                                                  "graph: hugging edges", "search"}));
    } else {
      EXPECT_EQ(phases, (std::vector<std::string>{"prepare", "search"}));
    }
    // Nodes carry their position; the goal's g is the length.
    const NodeState* goal = nullptr;
    for (const NodeState& n : s.nodes())
      if (n.desc.x == float(f.q.goal.x) && n.desc.y == float(f.q.goal.y) &&
          n.status == NodeStatus::Closed)
        goal = &n;
    ASSERT_NE(goal, nullptr);
    EXPECT_NEAR(goal->g, plain.length, 1e-9 * plain.length);
  }
}

TEST(CirclePlanner, OddInputsAndCancellation) {
  // Circles far away, of no size, or not finite are harmless; a non-finite end is refused.
  const std::vector<Circle> odd = {{1e12, -1e12, 5},
                                   {10, 10, 0},
                                   {std::nan(""), 3, 2},
                                   {5, 5, std::numeric_limits<double>::infinity()}};
  PlanResult r = plan(odd, query({0, 10}, {20, 10}), CircleGraphMode::Eager);
  ASSERT_TRUE(r.found);
  EXPECT_NEAR(r.length, 20, 1e-9);
  r = plan(odd, query({0, std::nan("")}, {20, 10}), CircleGraphMode::Lazy);
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.message, "start or goal is not a finite point");
  // A cancelled eager run stops during graph construction.
  CircleForestSpec spec;
  spec.count = 300;
  const CircleForest f = make_circle_forest(spec);
  std::atomic<bool> stop{true};
  std::atomic<float> progress{0};
  RunContext ctx;
  ctx.cancel = &stop;
  ctx.progress = &progress;
  CirclePlanOptions o;
  o.mode = CircleGraphMode::Eager;
  CircleGraphStats st;
  r = plan_among_circles(f.circles, f.query, o, ctx, &st);
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.found);
  EXPECT_EQ(st.circles_built, 1u);
  EXPECT_GT(progress.load(), 0.f);
}

TEST(CirclePlanner, RandomForestGenerator) {
  for (bool overlap : {true, false}) {
    CircleForestSpec spec;
    spec.count = 150;
    spec.overlap = overlap;
    spec.seed = 3;
    const CircleForest a = make_circle_forest(spec), b = make_circle_forest(spec);
    EXPECT_EQ(a.circles, b.circles);  // seeded
    EXPECT_EQ(a.circles.size(), 150u);
    for (size_t i = 0; i < a.circles.size(); ++i) {
      const Circle& c = a.circles[i];
      EXPECT_GE(c.r, spec.min_radius);
      EXPECT_LE(c.r, spec.max_radius);
      EXPECT_GT(distance(a.query.start.position(), c.center()), c.r + spec.agent_radius);
      EXPECT_GT(distance(a.query.goal.position(), c.center()), c.r + spec.agent_radius);
      for (size_t j = 0; j < i && !overlap; ++j) {
        EXPECT_GE(distance(c.center(), a.circles[j].center()), c.r + a.circles[j].r + spec.gap);
      }
    }
  }
}

TEST(CirclePlanner, CirclesInGridParameter) {
  // The grid planners' shared "circles" parameter (planners/grid_world.hpp) and its rule.
  const ParamDesc d = circles_param();
  PlannerInfo info{"x", "grid search", "", true, {d}, nullptr};
  const Registry& reg = Registry::builtin();
  EXPECT_EQ(GridWorld(reg.check(info, {})).rule(), CircleRasterRule::Centre);
  EXPECT_FALSE(GridWorld(reg.check(info, {{"circles", "ignore"}})).rule().has_value());
  EXPECT_EQ(GridWorld(reg.check(info, {{"circles", "touch"}})).rule(), CircleRasterRule::Touch);
  EXPECT_EQ(GridWorld(reg.check(info, {{"circles", "centre"}})).rule(), CircleRasterRule::Centre);
  EXPECT_THROW(reg.check(info, {{"circles", "yes"}}), InputError);
}

TEST(CirclePlanner, RegisteredWithTheRegistry) {
  const PlannerInfo* info = Registry::builtin().find("circles");
  ASSERT_NE(info, nullptr);
  EXPECT_TRUE(info->optimal);
  Scene scene;
  scene.circles = {{10, 10, 3}};
  scene.map = GridMap(20, 20);
  const Query q = query({0, 10}, {20, 10});
  const PlanResult lazy = Registry::builtin().create("circles")->plan(scene, q);
  const PlanResult eager =
      Registry::builtin().create("circles", {{"mode", "eager"}})->plan(scene, q);
  EXPECT_EQ(lazy.length, eager.length);
  EXPECT_NEAR(lazy.length, 2 * std::sqrt(91.0) + 3 * (kPi - 2 * std::acos(0.3)), 1e-9);
  // A circle on the map's edge sends the path outside the map; the result says so.
  scene.circles = {{10, 10, 9.5}};
  const PlanResult out =
      Registry::builtin().create("circles")->plan(scene, query({0, 10}, {20, 10}));
  ASSERT_TRUE(out.found);
  double leaves = -1;
  for (auto& [k, v] : out.stats)
    if (k == "leaves_map") leaves = v;
  EXPECT_EQ(leaves, 0);  // r 9.5 around (10, 10) stays inside 20 x 20
  scene.circles = {{10, 10, 10.5}};
  const PlanResult out2 =
      Registry::builtin().create("circles")->plan(scene, query({-1, 10}, {21, 10}));
  ASSERT_TRUE(out2.found);
  for (auto& [k, v] : out2.stats)
    if (k == "leaves_map") leaves = v;
  EXPECT_EQ(leaves, 1);
}

}  // namespace
}  // namespace pl
