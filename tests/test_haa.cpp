// HAA* (planners/haa.hpp): completeness against Annotated A* on random multi-terrain maps, path
// validity for the agent on every cell, strong dominance losing nothing (Theorem 6), entrances
// and transitions on hand-made maps, the planner's cache and statistics.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <map>
#include <queue>
#include <random>
#include <string>

#include "core/clearance.hpp"
#include "planners/grid_search.hpp"
#include "planners/haa.hpp"
#include "test_util.hpp"
#include "viz/trace.hpp"

namespace pl {
namespace {

constexpr TerrainId kGround = 0, kSwamp = 1, kTrees = 2, kBlocked = 4;  // Palette::movingai()

#ifdef PATHLAB_SANITIZED
constexpr int kMaps = 24, kProblemsPerMap = 10;
#else
constexpr int kMaps = 400, kProblemsPerMap = 12;
#endif

GridMap map_from_rows(const std::vector<std::string>& rows) {
  GridMap m(int(rows[0].size()), int(rows.size()));
  for (int y = 0; y < m.height(); ++y)
    for (int x = 0; x < m.width(); ++x)
      m.set(x, y, *m.palette().find_symbol(rows[std::size_t(y)][std::size_t(x)]));
  return m;
}

// Checks a path cell by cell: it starts and ends where asked, every cell is free for the
// agent (clearance >= size for its capability), every step is one octile move, diagonals cut no
// corner, and the reported length is the sum of the steps.
void expect_valid_path(const GridMap& map, const Query& q, const PlanResult& r) {
  const ClearanceGrid cl = true_clearance(map, q.capability);
  const int w = map.width();
  auto free_at = [&](int x, int y) {
    return map.in_bounds(x, y) && cl[std::size_t(y) * std::size_t(w) + std::size_t(x)] >= q.size;
  };
  ASSERT_FALSE(r.points.empty());
  EXPECT_EQ(r.points.front().position(), q.start.position());
  EXPECT_EQ(r.points.back().position(), q.goal.position());
  double len = 0;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const int x = int(std::floor(r.points[i].x)), y = int(std::floor(r.points[i].y));
    ASSERT_TRUE(free_at(x, y)) << "cell (" << x << "," << y << ") is not free for the agent";
    if (i == 0) continue;
    const int px = int(std::floor(r.points[i - 1].x)), py = int(std::floor(r.points[i - 1].y));
    const int dx = x - px, dy = y - py;
    ASSERT_TRUE(std::abs(dx) <= 1 && std::abs(dy) <= 1 && (dx || dy))
        << "jump from (" << px << "," << py << ") to (" << x << "," << y << ")";
    if (dx && dy) {
      ASSERT_TRUE(free_at(px + dx, py) && free_at(px, py + dy))
          << "corner cut from (" << px << "," << py << ") to (" << x << "," << y << ")";
    }
    len += (dx && dy) ? std::sqrt(2.0) : 1.0;
  }
  EXPECT_NEAR(len, r.length, 1e-9 * std::max(1.0, len));
}

struct RandomCase {
  GridMap map;
  std::vector<Query> queries;
};

// Random maps of ground, swamp, trees and hard obstacles, sometimes with walls (long straight
// obstacles make narrow entrances and clearance rises along borders); random capabilities.
RandomCase random_case(std::uint32_t seed) {
  std::mt19937 rng(seed);
  const int w = 16 + int(rng() % 30), h = 16 + int(rng() % 30);
  const double blocked = 0.05 + 0.25 * double(rng() % 100) / 100.0;
  const double soft = 0.4 * double(rng() % 100) / 100.0;
  RandomCase c;
  c.map = test::random_map(rng, w, h, {kGround, kSwamp, kTrees, kBlocked},
                           {1.0 - blocked - soft, soft * 0.6, soft * 0.4, blocked});
  for (int k = int(rng() % 4); k > 0; --k) {  // walls with a gap
    const bool vertical = rng() % 2;
    const int at = int(rng() % unsigned(vertical ? w : h));
    const int gap = int(rng() % unsigned(vertical ? h : w));
    for (int i = 0; i < (vertical ? h : w); ++i)
      if (std::abs(i - gap) > 1) {
        if (vertical)
          c.map.set(at, i, kBlocked);
        else
          c.map.set(i, at, kBlocked);
      }
  }
  const CapabilityMask caps[] = {1u << kGround, 1u << kGround | 1u << kSwamp,
                                 1u << kGround | 1u << kTrees,
                                 1u << kGround | 1u << kSwamp | 1u << kTrees, 1u << kSwamp};
  for (int i = 0; i < kProblemsPerMap; ++i) {
    Query q;
    q.capability = caps[rng() % 5];
    q.size = 1 + int(rng() % 2);
    // Mostly endpoints the agent may stand on, so most problems are real searches.
    const ClearanceGrid cl = true_clearance(c.map, q.capability);
    for (int pick = 0; pick < 2; ++pick) {
      int x = 0, y = 0;
      for (int tries = 0; tries < 50; ++tries) {
        x = int(rng() % unsigned(w));
        y = int(rng() % unsigned(h));
        if (cl[std::size_t(y) * std::size_t(w) + std::size_t(x)] >= q.size) break;
      }
      (pick == 0 ? q.start : q.goal) = Pose{x + 0.5, y + 0.5, 0};
    }
    c.queries.push_back(q);
  }
  return c;
}

TEST(Haa, CompleteAndValidOnRandomMaps) {
  const HaaQuality qualities[] = {HaaQuality::High, HaaQuality::Low};
  const HaaPlacement placements[] = {HaaPlacement::Paper, HaaPlacement::Middle,
                                     HaaPlacement::Spread};
  const int cluster_sizes[] = {4, 5, 8, 10};
  GridSearch aa;
  GridSearch::Options aopt;
  aopt.annotated = true;
  std::size_t solved = 0, unsolvable = 0;
  double worst_ratio = 1;
  // Path-length error (length / optimum - 1) by quality, over the queries whose optimum is at
  // least kMeasured long: the paper measures HAA* on long queries, where a detour through a
  // transition point is a small part of the path; on a two-cell query it can double it.
  constexpr double kMeasured = 10;
  double error_sum[2] = {0, 0};
  std::size_t error_count[2] = {0, 0};
  for (int m = 0; m < kMaps; ++m) {
    const RandomCase c = random_case(std::uint32_t(1000 + m));
    Scene scene;
    scene.map = c.map;
    HaaParams p;
    p.cluster_size = cluster_sizes[m % 4];
    p.quality = qualities[(m / 4) % 2];
    p.placement = placements[(m / 8) % 3];
    HaaQueryOptions o;
    o.smoothing = m % 3 == 0;
    o.insertion = HaaQueryOptions::Insertion(m % 4);
    HaaPlanner haa(p, o);
    for (const Query& q : c.queries) {
      SCOPED_TRACE("map seed " + std::to_string(1000 + m) + " cluster " +
                   std::to_string(p.cluster_size) + " " + haa_quality_name(p.quality) + " " +
                   haa_placement_name(p.placement) + " cap " + std::to_string(q.capability) +
                   " size " + std::to_string(q.size) + " (" + std::to_string(q.start.x) + "," +
                   std::to_string(q.start.y) + ")->(" + std::to_string(q.goal.x) + "," +
                   std::to_string(q.goal.y) + ")");
      const PlanResult ref = aa.run(scene.map, q, aopt, {});
      const PlanResult r = haa.plan(scene, q);
      ASSERT_EQ(r.found, ref.found) << r.message;
      if (!ref.found) {
        ++unsolvable;
        continue;
      }
      ++solved;
      expect_valid_path(scene.map, q, r);
      EXPECT_GE(r.length, ref.length - 1e-6 * ref.length);
      if (ref.length > 0) worst_ratio = std::max(worst_ratio, r.length / ref.length);
      if (ref.length >= kMeasured) {
        const int qi = p.quality == HaaQuality::High ? 0 : 1;
        error_sum[qi] += r.length / ref.length - 1;
        ++error_count[qi];
      }
      if (HasFatalFailure()) return;
    }
  }
  // Both outcomes must be well represented, or the test proves little.
  EXPECT_GT(solved, std::size_t(kMaps * kProblemsPerMap / 4));
  EXPECT_GT(unsolvable, std::size_t(kMaps));
  RecordProperty("worst_ratio", std::to_string(worst_ratio));
  std::printf("%zu solvable, %zu unsolvable problems; worst length ratio %.3f\n", solved,
              unsolvable, worst_ratio);
  // The paper's Fig. 5(a): HQ errors "in most cases between 3-6%", LQ "within 6-10% of
  // optimal". Their tops are our bounds (we measure 3.8 % and 7.8 % here, docs/haa.md has the
  // figures on the paper's own map sets): an HQ abstraction that lost the edges strong
  // dominance must keep would err like LQ and fail the first, a transition-point placement or
  // refinement gone wrong both.
  constexpr double kPaperHq = 0.06, kPaperLq = 0.10;
  for (int qi = 0; qi < 2; ++qi) ASSERT_GE(error_count[qi], 20u) << "too few long queries to measure";
  EXPECT_LT(error_sum[0] / double(error_count[0]), kPaperHq);
  EXPECT_LT(error_sum[1] / double(error_count[1]), kPaperLq);
  for (int qi = 0; qi < 2; ++qi)
    std::printf("%s: %zu queries of length >= %.0f, mean error %.2f %%\n", qi == 0 ? "HQ" : "LQ",
                error_count[qi], kMeasured, 100 * error_sum[qi] / double(std::max<std::size_t>(error_count[qi], 1)));
}

// Shortest abstract distances from every node for one agent, using only the edges it may use.
std::vector<std::vector<double>> abstract_distances(const HaaAbstraction& a, CapabilityMask cap,
                                                    int size) {
  const std::size_t n = a.nodes().size();
  std::vector<std::vector<double>> out(n, std::vector<double>(n, INFINITY));
  for (std::uint32_t s = 0; s < n; ++s) {
    if (!a.nodes()[s].alive) continue;
    auto& d = out[s];
    using Item = std::pair<double, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    d[s] = 0;
    pq.push({0, s});
    while (!pq.empty()) {
      auto [dist, u] = pq.top();
      pq.pop();
      if (dist > d[u]) continue;
      for (std::uint32_t ei : a.adjacent(u)) {
        const auto& e = a.edges()[ei];
        if (!e.admits(cap, size)) continue;
        const std::uint32_t v = e.a == u ? e.b : e.a;
        if (dist + e.weight < d[v]) {
          d[v] = dist + e.weight;
          pq.push({d[v], v});
        }
      }
    }
  }
  return out;
}

// The MovingAI palette with terrain costs (swamp 2.5, trees 1.7).
Palette costly_palette() {
  std::vector<Terrain> terrains = Palette::movingai().terrains();
  for (Terrain& t : terrains) {
    if (t.name == "swamp") t.cost = 2.5f;
    if (t.name == "trees") t.cost = 1.7f;
  }
  return Palette(terrains);
}

// A scene of the map's cells, under `priced` instead of the map's palette when given.
Scene scene_of(const GridMap& map, const Palette* priced) {
  Scene scene;
  scene.map = map;
  if (priced) {
    GridMap m(map.width(), map.height(), 0, *priced);
    for (int y = 0; y < map.height(); ++y)
      for (int x = 0; x < map.width(); ++x) m.set(x, y, map.at(x, y));
    scene.map = std::move(m);
  }
  return scene;
}

// Cached insertion walks shortest-path trees grown from the abstract nodes instead of searching
// from the start and goal: the temporary edges have the same lengths (moves cost the same both
// ways), so every answer has the same length as with a search per query, with and without
// terrain costs. A query's result does not depend on what the cache held before it.
TEST(Haa, CachedInsertionAnswersAsTheSearches) {
  const Palette costly = costly_palette();
  std::size_t compared = 0, reused = 0;
  for (int m = 0; m < kMaps / 4; ++m) {
    const RandomCase c = random_case(std::uint32_t(5000 + m));
    const Scene scene = scene_of(c.map, m % 2 ? &costly : nullptr);
    HaaParams p;
    p.cluster_size = 4 + m % 7;
    p.quality = m % 3 ? HaaQuality::High : HaaQuality::Low;
    HaaQueryOptions searched, cached;
    searched.insertion = HaaQueryOptions::Insertion::Dijkstra;
    cached.insertion = HaaQueryOptions::Insertion::Cached;
    HaaPlanner a(p, searched), b(p, cached);
    for (int round = 0; round < 2; ++round)
      for (const Query& q : c.queries) {
        SCOPED_TRACE("map seed " + std::to_string(5000 + m) + " round " + std::to_string(round));
        const PlanResult ra = a.plan(scene, q), rb = b.plan(scene, q);
        ASSERT_EQ(ra.found, rb.found) << rb.message;
        if (!ra.found) continue;
        EXPECT_NEAR(ra.length, rb.length, 1e-9 * std::max(1.0, ra.length));
        ++compared;
        if (round == 0) continue;
        // The trees are kept: the second round makes none and answers exactly as a fresh
        // planner (whose first query makes them) does.
        for (auto& [name, v] : rb.stats)
          if (name == "trees_made") {
            EXPECT_EQ(v, 0.0);
            ++reused;
          }
        HaaPlanner fresh(p, cached);
        const PlanResult rf = fresh.plan(scene, q);
        EXPECT_EQ(rf.length, rb.length);
        EXPECT_EQ(rf.expanded, rb.expanded);
        EXPECT_EQ(rf.points, rb.points);
      }
  }
  EXPECT_GT(compared, std::size_t(kMaps / 4) * 2);
  EXPECT_GT(reused, 0u);
}

// The landmark bounds are admissible and consistent on every agent's graph, also where it falls
// into several components (the random maps' walls and obstacles cut many) and with terrain
// costs: the abstract search finds paths of the same cost as with the octile distance alone,
// and expands fewer nodes overall.
TEST(Haa, LandmarksKeepEveryLengthAndExpandFewer) {
  const Palette costly = costly_palette();
  auto stat = [](const PlanResult& r, const char* key) {
    for (const auto& [name, v] : r.stats)
      if (name == key) return v;
    ADD_FAILURE() << "no statistic " << key;
    return 0.0;
  };
  double with = 0, without = 0;
  std::size_t compared = 0;
  for (int m = 0; m < kMaps / 4; ++m) {
    const RandomCase c = random_case(std::uint32_t(7000 + m));
    const Scene scene = scene_of(c.map, m % 2 ? &costly : nullptr);
    HaaParams p;
    p.cluster_size = 4 + m % 7;
    p.quality = m % 3 == 0 ? HaaQuality::Low : m % 3 == 1 ? HaaQuality::High : HaaQuality::Initial;
    HaaQueryOptions alt, octile;
    octile.landmarks = false;
    HaaPlanner a(p, alt), b(p, octile);
    for (const Query& q : c.queries) {
      SCOPED_TRACE("map seed " + std::to_string(7000 + m));
      const PlanResult ra = a.plan(scene, q), rb = b.plan(scene, q);
      ASSERT_EQ(ra.found, rb.found) << ra.message;
      if (!ra.found) continue;
      const double la = stat(ra, "abstract_length"), lb = stat(rb, "abstract_length");
      EXPECT_NEAR(la, lb, 1e-9 * std::max(1.0, lb));
      EXPECT_NEAR(ra.length, rb.length, 1e-9 * std::max(1.0, rb.length));
      with += stat(ra, "abstract_expanded");
      without += stat(rb, "abstract_expanded");
      ++compared;
    }
  }
  EXPECT_GT(compared, std::size_t(kMaps / 4) * 2);
  EXPECT_LT(with, without);
}

TEST(Haa, StrongDominanceKeepsEveryShortestAbstractPath) {
#ifdef PATHLAB_SANITIZED
  const int maps = 6;
#else
  const int maps = 30;
#endif
  std::size_t removed = 0, compared = 0;
  for (int m = 0; m < maps; ++m) {
    const RandomCase c = random_case(std::uint32_t(5000 + m));
    HaaParams p;
    p.cluster_size = 4 + m % 5;
    p.sizes = {1, 2, 3};
    p.placement = HaaPlacement(m % 3);
    HaaAbstraction initial, high;
    p.quality = HaaQuality::Initial;
    initial.build(c.map, p);
    p.quality = HaaQuality::High;
    high.build(c.map, p);
    ASSERT_EQ(initial.nodes().size(), high.nodes().size());
    removed += high.stats().removed_strong;
    EXPECT_LT(high.stats().edges, initial.stats().edges + 1);
    for (CapabilityMask cap : initial.capabilities())
      for (int s : p.sizes) {
        const auto a = abstract_distances(initial, cap, s);
        const auto b = abstract_distances(high, cap, s);
        for (std::size_t i = 0; i < a.size(); ++i)
          for (std::size_t j = 0; j < a.size(); ++j) {
            ++compared;
            if (std::isinf(a[i][j])) {
              ASSERT_TRUE(std::isinf(b[i][j])) << "seed " << 5000 + m;
            } else {
              ASSERT_NEAR(a[i][j], b[i][j], 1e-9 * std::max(1.0, a[i][j]))
                  << "seed " << 5000 + m << " cap " << cap << " size " << s << " nodes " << i << ","
                  << j;
            }
          }
      }
  }
  EXPECT_GT(removed, 0u);  // the theorem was exercised
  EXPECT_GT(compared, 1000u);
}

// Weak dominance keeps every abstract node pair connected for every agent that the HQ graph
// connects them for (representational completeness, Theorem 7 and Corollary 8), among the nodes
// that survive.
TEST(Haa, WeakDominanceKeepsConnectivity) {
#ifdef PATHLAB_SANITIZED
  const int maps = 6;
#else
  const int maps = 30;
#endif
  std::size_t removed_edges = 0, removed_nodes = 0;
  for (int m = 0; m < maps; ++m) {
    const RandomCase c = random_case(std::uint32_t(7000 + m));
    HaaParams p;
    p.cluster_size = 4 + m % 5;
    HaaAbstraction high, low;
    p.quality = HaaQuality::High;
    high.build(c.map, p);
    p.quality = HaaQuality::Low;
    low.build(c.map, p);
    removed_edges += low.stats().removed_weak;
    removed_nodes += low.stats().removed_nodes;
    EXPECT_LE(low.stats().nodes, high.stats().nodes);
    EXPECT_LE(low.stats().edges, high.stats().edges);
    for (CapabilityMask cap : high.capabilities())
      for (int s : p.sizes) {
        const auto a = abstract_distances(high, cap, s);
        const auto b = abstract_distances(low, cap, s);
        for (std::size_t i = 0; i < a.size(); ++i) {
          if (!low.nodes()[i].alive) continue;
          for (std::size_t j = 0; j < a.size(); ++j) {
            if (!low.nodes()[j].alive) continue;
            ASSERT_EQ(std::isinf(a[i][j]), std::isinf(b[i][j])) << "seed " << 7000 + m;
            if (!std::isinf(a[i][j])) {
              EXPECT_GE(b[i][j], a[i][j] - 1e-9);
            }
          }
        }
      }
  }
  EXPECT_GT(removed_edges, 0u);
  EXPECT_GT(removed_nodes, 0u);
}

// ---- Hand-made maps ---------------------------------------------------------------------------

std::vector<const HaaAbstraction::Entrance*> entrances_between(const HaaAbstraction& a, int ca,
                                                               int cb, CapabilityMask cap) {
  std::vector<const HaaAbstraction::Entrance*> out;
  for (const auto& e : a.entrances())
    if (e.cluster_a == ca && e.cluster_b == cb && e.capability == cap) out.push_back(&e);
  return out;
}

TEST(Haa, EntranceRunsTouchingClusterCornersAreKept) {
  // Clusters of 4: the border between the two top clusters is x = 3 | 4, rows 0..3. Only its
  // first and last pairs are free: both runs touch a cluster corner.
  const GridMap map = map_from_rows({
      "........",
      "...@@...",
      "...@@...",
      "........",
      "........",
      "........",
      "........",
      "........",
  });
  HaaParams p;
  p.cluster_size = 4;
  p.sizes = {1};
  HaaAbstraction a;
  a.build(map, p);
  const CapabilityMask ground = 1u << kGround;
  const auto es = entrances_between(a, 0, 1, ground);
  ASSERT_EQ(es.size(), 2u);
  EXPECT_EQ(es[0]->y, 0);
  EXPECT_EQ(es[0]->length, 1);
  EXPECT_EQ(es[1]->y, 3);
  EXPECT_EQ(es[1]->length, 1);
  EXPECT_TRUE(es[0]->vertical);
  // Each has its transition, an inter-edge across the border.
  for (const auto* e : es) {
    ASSERT_EQ(e->transitions.size(), 1u);
    const auto& edge = a.edges()[e->transitions[0]];
    EXPECT_TRUE(edge.inter);
    EXPECT_EQ(a.nodes()[edge.a].x + 1, a.nodes()[edge.b].x);
  }
}

TEST(Haa, ClearanceRiseStartsANewEntrance) {
  // Clusters of 8: vertical border x = 7 | 8. The obstacle at (9, 2) keeps the right side's
  // clearance at 2, 1, 1 for rows 0..2; at row 3 it rises to 5, so a second entrance starts there.
  std::vector<std::string> rows(8, std::string(16, '.'));
  rows[2][9] = '@';
  const GridMap map = map_from_rows(rows);
  HaaParams p;
  p.cluster_size = 8;
  p.sizes = {1, 2};
  p.placement = HaaPlacement::Paper;
  HaaAbstraction a;
  a.build(map, p);
  const CapabilityMask ground = 1u << kGround;
  const auto es = entrances_between(a, 0, 1, ground);
  ASSERT_EQ(es.size(), 2u);
  EXPECT_EQ(es[0]->y, 0);
  EXPECT_EQ(es[0]->length, 3);
  EXPECT_EQ(es[0]->clearance, 2);  // (7,0) and (8,0) both have clearance 2
  EXPECT_EQ(es[1]->y, 3);
  EXPECT_EQ(es[1]->length, 5);
  EXPECT_EQ(es[1]->clearance, 5);
  // The paper's transition: the first pair at the maximal clearance.
  const auto& t = a.edges()[es[1]->transitions[0]];
  EXPECT_EQ(a.nodes()[t.a].y, 3);
  EXPECT_EQ(t.clearance, 5);
  // Without the third rule, a size-2 agent in the right cluster's rows 0..2 would see an
  // entrance whose transition it cannot use; with it, it crosses at row 3.
  Scene scene;
  scene.map = map;
  HaaPlanner haa(p, {});
  Query q;
  q.size = 2;
  q.capability = ground;
  q.start = {1.5, 0.5, 0};
  q.goal = {13.5, 0.5, 0};
  const PlanResult r = haa.plan(scene, q);
  ASSERT_TRUE(r.found) << r.message;
  expect_valid_path(map, q, r);
}

TEST(Haa, MiddlePlacementCentresTheTransition) {
  // One long open border: clearance falls along it (the map's bottom limits it), so the paper
  // picks the entrance's first pair; Middle picks the middle of the pairs that still serve
  // every size (clearance >= 2).
  const GridMap map(20, 10);
  HaaParams p;
  p.cluster_size = 10;
  p.sizes = {1, 2};
  const CapabilityMask ground = 1u << kGround;
  for (HaaPlacement pl : {HaaPlacement::Paper, HaaPlacement::Middle, HaaPlacement::Spread}) {
    p.placement = pl;
    HaaAbstraction a;
    a.build(map, p);
    const auto es = entrances_between(a, 0, 1, ground);
    ASSERT_EQ(es.size(), 1u);
    EXPECT_EQ(es[0]->length, 10);
    const auto& tr = es[0]->transitions;
    const int y0 = a.nodes()[a.edges()[tr[0]].a].y;
    if (pl == HaaPlacement::Paper) {
      EXPECT_EQ(tr.size(), 1u);
      EXPECT_EQ(y0, 0);
    } else {
      EXPECT_EQ(y0, 4);  // pairs 0..8 have clearance >= 2 (row 9 has 1): the middle is row 4
      ASSERT_EQ(tr.size(), pl == HaaPlacement::Spread ? 2u : 1u);
      if (pl == HaaPlacement::Spread) {
        EXPECT_EQ(a.nodes()[a.edges()[tr[1]].a].y, 9);
      }
    }
  }
}

TEST(Haa, PathThroughAClusterCorner) {
  // The only route from the top-left to the bottom-right cluster passes through the cells
  // around the shared corner (3,3)-(4,4).
  const GridMap map = map_from_rows({
      "....@@@@",
      "....@@@@",
      "....@@@@",
      "........",
      "@@@.....",
      "@@@@....",
      "@@@@....",
      "@@@@....",
  });
  HaaParams p;
  p.cluster_size = 4;
  p.sizes = {1};
  Scene scene;
  scene.map = map;
  HaaPlanner haa(p, {});
  Query q;
  q.capability = 1u << kGround;
  q.start = {0.5, 0.5, 0};
  q.goal = {7.5, 7.5, 0};
  const PlanResult r = haa.plan(scene, q);
  ASSERT_TRUE(r.found) << r.message;
  expect_valid_path(map, q, r);
}

TEST(Haa, PlannerCachesTheAbstractionAndReportsPhases) {
  std::mt19937 rng(3);
  Scene scene;
  scene.map = test::random_map(rng, 60, 50, {kGround, kSwamp, kBlocked}, {0.7, 0.2, 0.1});
  auto planner = Registry::builtin().create("haa", {{"quality", "lq"}, {"cluster_size", "8"}});
  Query q;
  q.capability = 1u << kGround | 1u << kSwamp;
  q.start = {0.5, 0.5, 0};
  q.goal = {59.5, 49.5, 0};
  scene.map.set(0, 0, kGround);
  scene.map.set(59, 49, kGround);
  auto stat = [](const PlanResult& r, const std::string& k) {
    for (auto& [name, v] : r.stats)
      if (name == k) return v;
    ADD_FAILURE() << "no stat " << k;
    return -1.0;
  };
  const PlanResult first = planner->plan(scene, q);
  ASSERT_TRUE(first.found) << first.message;
  EXPECT_EQ(stat(first, "built"), 1.0);
  const PlanResult second = planner->plan(scene, q);
  EXPECT_EQ(stat(second, "built"), 0.0);
  EXPECT_EQ(second.length, first.length);
  EXPECT_EQ(first.expanded,
            std::uint64_t(stat(first, "insertion_expanded") + stat(first, "abstract_expanded") +
                          stat(first, "refinement_expanded")));
  EXPECT_GT(stat(first, "abstract_nodes"), 0.0);
  EXPECT_LT(stat(first, "node_percent"), 100.0);
  // A copy of the map (new uid, same cells) reuses it; an edit updates it (a part re-made).
  Scene copy;
  copy.map = scene.map;
  EXPECT_EQ(stat(planner->plan(copy, q), "built"), 0.0);
  copy.map.set(30, 25, kBlocked);
  const PlanResult edited = planner->plan(copy, q);
  EXPECT_EQ(stat(edited, "built"), 1.0);
  EXPECT_EQ(stat(edited, "updated"), 1.0);

  // A watched build shows every build phase, then the query's.
  auto fresh = Registry::builtin().create("haa", {{"quality", "lq"}, {"cluster_size", "8"}});
  TraceRecorder rec;
  RunContext ctx;
  ctx.observer = &rec;
  std::atomic<float> progress{0};
  ctx.progress = &progress;
  const PlanResult watched = fresh->plan(scene, q, ctx);
  EXPECT_EQ(watched.length, first.length);
  EXPECT_EQ(progress.load(), 1.0f);
  const Trace trace = rec.take();
  std::vector<std::string> phases;
  for (auto& ph : trace.phases()) phases.push_back(ph.name);
  for (const char* want : {"clusters", "scan entrances", "choose transitions", "intra edges",
                           "dominance (strong)", "dominance (weak)", "abstraction", "insert start",
                           "insert goal", "abstract search", "refine"})
    EXPECT_NE(std::find(phases.begin(), phases.end(), want), phases.end()) << want;
  // Shapes carry requirements: a size-1 ground-only agent sees fewer edges than a large-capability
  // one.
  TraceCursor end(trace);
  end.seek(trace.frame_count() - 1);
  const auto all = end.state().shapes();
  const auto narrow = shapes_for_agent(all, 1u << kGround, 2);
  const auto wide = shapes_for_agent(all, 1u << kGround | 1u << kSwamp, 1);
  EXPECT_LT(narrow.size(), wide.size());
  EXPECT_LE(wide.size(), all.size());
  for (const ShapeRecord* s : narrow) EXPECT_TRUE(s->shape.requirement.admits(1u << kGround, 2));
}

TEST(Haa, WatchedQueryOnACachedAbstractionShowsTheGraph) {
  std::mt19937 rng(8);
  Scene scene;
  scene.map = test::random_map(rng, 48, 40, {kGround, kSwamp, kBlocked}, {0.7, 0.2, 0.1});
  scene.map.set(0, 0, kGround);
  scene.map.set(47, 39, kGround);
  Query q;
  q.capability = 1u << kGround;
  q.size = 2;
  q.start = {0.5, 0.5, 0};
  q.goal = {47.5, 39.5, 0};
  std::size_t all_count = 0;
  for (const char* mode : {"all", "agent", "none"}) {
    auto planner = Registry::builtin().create("haa", {{"show_graph", mode}, {"cluster_size", "8"}});
    planner->plan(scene, q);  // builds
    TraceRecorder rec;
    RunContext ctx;
    ctx.observer = &rec;
    planner->plan(scene, q, ctx);
    const Trace trace = rec.take();
    std::size_t graph = 0;
    bool admits_all = true;
    for (const ShapeRecord& s : trace.shapes())
      if (s.role == Role::AbstractEdge || s.role == Role::Transition || s.role == Role::Entrance) {
        ++graph;
        admits_all &= s.shape.requirement.admits(q.capability, q.size);
      }
    const bool has_phase =
        std::any_of(trace.phases().begin(), trace.phases().end(),
                    [](const Trace::PhaseMarker& m) { return m.name == "abstraction"; });
    if (std::string(mode) == "all") {
      all_count = graph;
      EXPECT_TRUE(has_phase);
      EXPECT_FALSE(admits_all);  // a ground-only size-2 agent cannot use everything
    } else if (std::string(mode) == "agent") {
      EXPECT_TRUE(has_phase);
      EXPECT_TRUE(admits_all);
      EXPECT_LT(graph, all_count);
      EXPECT_GT(graph, 0u);
    } else {
      EXPECT_FALSE(has_phase);
    }
  }
}

// Mixed worlds: like every grid planner, HAA* treats the scene's circles as obstacles by its
// "circles" rule, and rebuilds its abstraction when they change.
TEST(Haa, CirclesBlockCellsByTheChosenRule) {
  Scene s;
  s.map = GridMap(20, 3);
  for (int x = 0; x < 20; ++x) s.map.set(x, 0, kBlocked), s.map.set(x, 2, kBlocked);  // a corridor
  Query q;
  q.start = {0.5, 1.5, 0};
  q.goal = {19.5, 1.5, 0};
  const Registry& reg = Registry::builtin();
  auto planner = reg.create("haa", {{"cluster_size", "4"}});
  EXPECT_TRUE(planner->plan(s, q).found);
  s.circles = {Circle{9.5, 1.5, 0.2}};      // covers the centre of cell (9, 1)
  EXPECT_FALSE(planner->plan(s, q).found);  // centre is the default; the same planner rebuilds
  EXPECT_TRUE(reg.create("haa", {{"circles", "ignore"}, {"cluster_size", "4"}})->plan(s, q).found);
  s.circles = {Circle{9.0, 1.0, 0.3}};  // grazes the cell, misses its centre
  EXPECT_TRUE(planner->plan(s, q).found);
  EXPECT_FALSE(reg.create("haa", {{"circles", "touch"}, {"cluster_size", "4"}})->plan(s, q).found);
}

TEST(Haa, CancelledBuildReportsCancellation) {
  std::mt19937 rng(4);
  Scene scene;
  scene.map = test::random_map(rng, 64, 64, {kGround, kSwamp}, {0.8, 0.2});
  auto planner = Registry::builtin().create("haa");
  std::atomic<bool> cancel{true};
  RunContext ctx;
  ctx.cancel = &cancel;
  Query q;
  q.start = {0.5, 0.5, 0};
  q.goal = {60.5, 60.5, 0};
  const PlanResult r = planner->plan(scene, q, ctx);
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.found);
  cancel = false;
  EXPECT_FALSE(planner->plan(scene, q, ctx).cancelled);
}

TEST(Haa, BlockedEndpointsAndUncoveredSizes) {
  const GridMap map = map_from_rows({"..@.", "....", "...."});
  Scene scene;
  scene.map = map;
  auto planner = Registry::builtin().create("haa", {{"cluster_size", "2"}});
  Query q;
  q.start = {2.5, 0.5, 0};
  q.goal = {0.5, 2.5, 0};
  PlanResult r = planner->plan(scene, q);
  EXPECT_FALSE(r.found);
  EXPECT_NE(r.message.find("start (2,0)"), std::string::npos) << r.message;
  q.start = {0.5, 0.5, 0};
  q.size = 3;  // clearance of (0,0) is 1
  r = planner->plan(scene, q);
  EXPECT_FALSE(r.found);
  EXPECT_NE(r.message.find("clearance"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace pl
