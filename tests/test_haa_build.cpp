// HAA* build (planners/haa.hpp): the abstraction shared out among threads is the same as the one
// built by one thread, field by field, on random multi-terrain maps, for every quality.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "planners/haa.hpp"
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
    const auto pa = a.path_of(x), pb = b.path_of(y);
    ASSERT_EQ(std::vector<std::uint32_t>(pa.begin(), pa.end()),
              std::vector<std::uint32_t>(pb.begin(), pb.end()))
        << "path of edge " << i;
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
      ASSERT_TRUE(xa[k].to == xb[k].to && xa[k].edge == xb[k].edge &&
                  xa[k].weight == xb[k].weight && xa[k].capability == xb[k].capability &&
                  xa[k].clearance == xb[k].clearance);
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

}  // namespace
}  // namespace pl
