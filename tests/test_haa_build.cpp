// HAA* build (planners/haa.hpp): the abstraction shared out among threads is the same as the one
// built by one thread, and the one brought up to date after edits is the same as one built from
// scratch, field by field, on random multi-terrain maps, for every quality and placement.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "planners/haa.hpp"
#include "planners/planner.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

constexpr TerrainId kGround = 0, kSwamp = 1, kTrees = 2, kBlocked = 4;  // Palette::movingai()

#ifdef PATHLAB_SANITIZED
constexpr int kMaps = 4;
#else
constexpr int kMaps = 24;
#endif

// Every node, edge (with its cached path), entrance, arc and count of two abstractions.
void expect_same_abstraction(const HaaAbstraction& a, const HaaAbstraction& b) {
  ASSERT_EQ(a.nodes().size(), b.nodes().size());
  for (std::size_t i = 0; i < a.nodes().size(); ++i) {
    const auto &x = a.nodes()[i], &y = b.nodes()[i];
    ASSERT_TRUE(x.x == y.x && x.y == y.y && x.cluster == y.cluster && x.alive == y.alive)
        << "node " << i;
  }
  ASSERT_EQ(a.edges().size(), b.edges().size());
  for (std::size_t i = 0; i < a.edges().size(); ++i) {
    const auto &x = a.edges()[i], &y = b.edges()[i];
    ASSERT_TRUE(x.a == y.a && x.b == y.b && x.capability == y.capability &&
                x.clearance == y.clearance && x.weight == y.weight && x.inter == y.inter &&
                x.alive == y.alive)
        << "edge " << i;
    std::vector<std::uint32_t> pa, pb;
    a.path_of(x, pa);
    b.path_of(y, pb);
    ASSERT_EQ(pa, pb) << "path of edge " << i;
  }
  ASSERT_EQ(a.entrances().size(), b.entrances().size());
  for (std::size_t i = 0; i < a.entrances().size(); ++i) {
    const auto &x = a.entrances()[i], &y = b.entrances()[i];
    ASSERT_TRUE(x.cluster_a == y.cluster_a && x.cluster_b == y.cluster_b &&
                x.vertical == y.vertical && x.x == y.x && x.y == y.y && x.length == y.length &&
                x.capability == y.capability && x.clearance == y.clearance &&
                x.transitions == y.transitions)
        << "entrance " << i;
  }
  for (std::uint32_t n = 0; n < a.nodes().size(); ++n) {
    const auto xa = a.arcs(n), xb = b.arcs(n);
    ASSERT_EQ(xa.size(), xb.size()) << "arcs of node " << n;
    for (std::size_t k = 0; k < xa.size(); ++k)
      ASSERT_TRUE(xa[k].to == xb[k].to && xa[k].edge == xb[k].edge);
  }
  for (int c = 0; c < a.clusters_x() * a.clusters_y(); ++c)
    ASSERT_EQ(a.cluster_nodes(c), b.cluster_nodes(c));
  const HaaBuildStats &sa = a.stats(), &sb = b.stats();
  EXPECT_EQ(sa.nodes, sb.nodes);
  EXPECT_EQ(sa.edges, sb.edges);
  EXPECT_EQ(sa.entrances, sb.entrances);
  EXPECT_EQ(sa.transitions, sb.transitions);
  EXPECT_EQ(sa.removed_strong, sb.removed_strong);
  EXPECT_EQ(sa.removed_weak, sb.removed_weak);
  EXPECT_EQ(sa.removed_nodes, sb.removed_nodes);
  EXPECT_EQ(sa.searches, sb.searches);
  EXPECT_EQ(sa.expanded, sb.expanded);
}

TEST(HaaBuild, SameAbstractionForAnyNumberOfThreads) {
  std::mt19937 rng(13);
  const HaaQuality qualities[] = {HaaQuality::Initial, HaaQuality::High, HaaQuality::Low};
  const HaaPlacement placements[] = {HaaPlacement::Paper, HaaPlacement::Middle,
                                     HaaPlacement::Spread};
  std::size_t edges = 0;
  for (int m = 0; m < kMaps; ++m) {
    const int w = 30 + int(rng() % 90), h = 30 + int(rng() % 90);
    const double blocked = 0.05 + 0.25 * double(rng() % 100) / 100.0;
    const double soft = 0.4 * double(rng() % 100) / 100.0;
    const GridMap map = test::random_map(rng, w, h, {kGround, kSwamp, kTrees, kBlocked},
                                         {1.0 - blocked - soft, soft * 0.6, soft * 0.4, blocked});
    HaaParams p;
    p.cluster_size = 4 + int(rng() % 13);
    p.sizes = rng() % 2 ? std::vector<int>{1, 2} : std::vector<int>{1, 2, 3};
    p.quality = qualities[rng() % 3];
    p.placement = placements[rng() % 3];
    HaaAbstraction one;
    one.set_threads(1);
    ASSERT_TRUE(one.build(map, p));
    edges += one.stats().edges;
    for (int threads : {2, 3, 7}) {
      HaaAbstraction many;
      many.set_threads(threads);
      ASSERT_TRUE(many.build(map, p));
      SCOPED_TRACE("map " + std::to_string(m) + ", " + std::to_string(threads) + " threads");
      expect_same_abstraction(one, many);
    }
  }
  EXPECT_GT(edges, 1000u);  // the maps make real abstractions
}

// The assembly shares its copies among threads only when there are many edges (at least 65,536
// a thread): a map large enough for that, built by one thread and by two, and updated after an
// edit, gives the same abstraction as one thread's fresh build.
TEST(HaaBuild, LargeAssemblySharedAmongThreadsIsTheSame) {
  std::mt19937 rng(5);
  GridMap map = test::random_map(rng, 300, 300, {kGround, kSwamp, kBlocked}, {0.7, 0.2, 0.1});
  HaaParams p;
  p.cluster_size = 8;
  p.quality = HaaQuality::High;
  p.placement = HaaPlacement::Middle;
  HaaAbstraction one, two;
  one.set_threads(1);
  two.set_threads(2);
  ASSERT_TRUE(one.build(map, p));
  ASSERT_TRUE(two.build(map, p));
  ASSERT_GT(one.edges().size(), 2u * 65536u);
  expect_same_abstraction(one, two);
  map.set(150, 150, kBlocked);
  map.set(151, 150, kGround);
  ASSERT_TRUE(two.update(map));
  ASSERT_TRUE(two.stats().incremental);
  ASSERT_TRUE(one.build(map, p));
  expect_same_abstraction(one, two);
}

// One random edit of `map`: a cell or a rectangle up to 6 x 6, anywhere, across a cluster border
// or on a cluster corner (where one cell belongs to a vertical and a horizontal border), filled
// with one terrain or with random ones (obstacles added and removed, terrain changed).
void random_edit(std::mt19937& rng, GridMap& map, int cluster_size) {
  const TerrainId terrains[] = {kGround, kSwamp, kTrees, kBlocked};
  const int w = map.width(), h = map.height();
  const int ew = rng() % 2 ? 1 : 1 + int(rng() % 6), eh = rng() % 2 ? 1 : 1 + int(rng() % 6);
  int x = int(rng() % unsigned(w)), y = int(rng() % unsigned(h));
  switch (rng() % 4) {
    case 0:  // near a vertical border
      x = (x / cluster_size) * cluster_size + int(rng() % 3) - 1;
      break;
    case 1:  // near a horizontal border
      y = (y / cluster_size) * cluster_size + int(rng() % 3) - 1;
      break;
    case 2:  // near a cluster corner
      x = (x / cluster_size) * cluster_size + int(rng() % 3) - 1;
      y = (y / cluster_size) * cluster_size + int(rng() % 3) - 1;
      break;
    default:
      break;
  }
  const bool mixed = rng() % 3 == 0;
  const TerrainId fill = terrains[rng() % 4];
  for (int yy = y; yy < y + eh; ++yy)
    for (int xx = x; xx < x + ew; ++xx)
      if (xx >= 0 && yy >= 0 && xx < w && yy < h)
        map.set(xx, yy, mixed ? terrains[rng() % 4] : fill);
}

TEST(HaaBuild, UpdateAfterEditsEqualsFreshBuild) {
  std::mt19937 rng(29);
  const HaaQuality qualities[] = {HaaQuality::Initial, HaaQuality::High, HaaQuality::Low};
  const HaaPlacement placements[] = {HaaPlacement::Paper, HaaPlacement::Middle,
                                     HaaPlacement::Spread};
  std::size_t updates = 0, rebuilt = 0, clusters = 0;
  for (int m = 0; m < kMaps; ++m) {
    const bool medium = m % 3 == 2;
    const int w = medium ? 90 + int(rng() % 60) : 12 + int(rng() % 40),
              h = medium ? 90 + int(rng() % 60) : 12 + int(rng() % 40);
    // Sparse maps too: open areas make clearance changes travel far up and left.
    const double blocked = (m % 4 == 0 ? 0.0 : 0.05) + 0.25 * double(rng() % 100) / 100.0;
    const double soft = 0.4 * double(rng() % 100) / 100.0;
    GridMap map = test::random_map(rng, w, h, {kGround, kSwamp, kTrees, kBlocked},
                                   {1.0 - blocked - soft, soft * 0.6, soft * 0.4, blocked});
    HaaParams p;
    p.cluster_size = 3 + int(rng() % 14);
    p.sizes = rng() % 2 ? std::vector<int>{1, 2} : std::vector<int>{1, 2, 3};
    p.quality = qualities[rng() % 3];
    p.placement = placements[rng() % 3];
    HaaAbstraction inc;
    ASSERT_TRUE(inc.build(map, p));
    for (int e = 0; e < 12; ++e) {
      random_edit(rng, map, p.cluster_size);
      ASSERT_TRUE(inc.update(map, {}, map.cells().size()));
      HaaAbstraction fresh;
      ASSERT_TRUE(fresh.build(map, p));
      SCOPED_TRACE("map " + std::to_string(m) + ", edit " + std::to_string(e));
      expect_same_abstraction(fresh, inc);
      EXPECT_EQ(inc.stats().base_nodes, fresh.stats().base_nodes);
      EXPECT_EQ(inc.stats().base_edges, fresh.stats().base_edges);
      if (::testing::Test::HasFatalFailure()) return;
      if (inc.stats().incremental) {
        ++updates;
        rebuilt += inc.stats().rebuilt_clusters;
        clusters += inc.stats().clusters;
      }
    }
  }
  // Most edits were real updates (a new terrain or a terrain's last cell forces a build), and
  // they re-made a small part of the map.
  EXPECT_GT(updates, std::size_t(kMaps) * 12 * 3 / 4);
  EXPECT_LT(rebuilt * 2, clusters);
}

double stat_of(const PlanResult& r, const std::string& key) {
  for (const auto& [k, v] : r.stats)
    if (k == key) return v;
  return -1;
}

// The cells a path's line pieces join (HAA* paths are made of lines only).
std::vector<Vec2> path_points(const PlanResult& r) {
  std::vector<Vec2> out;
  for (const PathPiece& p : r.pieces) {
    EXPECT_EQ(p.kind, PathPiece::Kind::Line);
    out.push_back(p.line.a);
    out.push_back(p.line.b);
  }
  return out;
}

// The planner updates its abstraction after an edit (a new version of the same map, or an
// edited copy) and answers every query as a planner that built it on the edited map does.
TEST(HaaBuild, PlannerAfterEditsAnswersAsAFreshOne) {
  std::mt19937 rng(31);
  for (int m = 0; m < kMaps / 2; ++m) {
    Scene scene;
    scene.map =
        test::random_map(rng, 64, 48, {kGround, kSwamp, kTrees, kBlocked}, {0.6, 0.12, 0.08, 0.2});
    const std::map<std::string, std::string> params = {
        {"cluster_size", std::to_string(4 + rng() % 9)},
        {"quality", m % 2 ? "hq" : "lq"},
        {"transitions", m % 3 ? "middle" : "paper"}};
    auto kept = Registry::builtin().create("haa", params);
    kept->plan(scene, Query{});  // builds on the unedited map
    for (int e = 0; e < 6; ++e) {
      for (int k = 0; k < 3; ++k) random_edit(rng, scene.map, 8);
      Scene copy;  // every other time an edited copy (new uid) rather than a new version
      if (e % 2) copy.map = scene.map;
      const Scene& sc = e % 2 ? copy : scene;
      auto fresh = Registry::builtin().create("haa", params);
      for (int q = 0; q < 10; ++q) {
        Query query;
        query.start = {0.5 + double(rng() % 64), 0.5 + double(rng() % 48), 0};
        query.goal = {0.5 + double(rng() % 64), 0.5 + double(rng() % 48), 0};
        query.size = 1 + int(rng() % 2);
        query.capability = rng() % 2 ? (1u << kGround) : (1u << kGround | 1u << kSwamp);
        const PlanResult a = kept->plan(sc, query), b = fresh->plan(sc, query);
        if (q == 0) {
          EXPECT_EQ(stat_of(a, "built"), 1.0);
          EXPECT_EQ(stat_of(a, "updated"), 1.0);
        }
        ASSERT_EQ(a.found, b.found) << "map " << m << " edit " << e << " query " << q;
        EXPECT_EQ(a.length, b.length);
        EXPECT_EQ(a.expanded, b.expanded);
        EXPECT_EQ(path_points(a), path_points(b));
      }
    }
  }
}

}  // namespace
}  // namespace pl
