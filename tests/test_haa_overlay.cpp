// The HAA* overlay (viz/haa_overlay.hpp): what it draws for an abstraction, filtered by agent and
// culled to the visible rectangle, and the legend keys it declares.
#include <gtest/gtest.h>

#include <random>

#include "planners/haa.hpp"
#include "test_util.hpp"
#include "viz/haa_overlay.hpp"
#include "viz/style.hpp"

namespace pl {
namespace {

constexpr TerrainId kGround = 0, kSwamp = 1, kBlocked = 4;

HaaAbstraction sample(GridMap& map) {
  std::mt19937 rng(21);
  map = test::random_map(rng, 40, 30, {kGround, kSwamp, kBlocked}, {0.65, 0.25, 0.1});
  HaaParams p;
  p.cluster_size = 8;
  HaaAbstraction a;
  a.build(map, p);
  return a;
}

HaaOverlayOptions only(bool edges, bool entrances) {
  HaaOverlayOptions o;
  o.clusters = o.nodes = o.transitions = false;
  o.entrances = entrances;
  o.inter_edges = o.intra_edges = edges;
  return o;
}

TEST(HaaOverlay, DrawsEveryPartWithItsLegendKey) {
  GridMap map;
  const HaaAbstraction a = sample(map);
  DrawList list;
  draw_haa_abstraction(list, a, map.palette(), Style::standard());
  const DrawBatch& b = list.batch(Layer::Shapes);
  for (Role r :
       {Role::Cluster, Role::Entrance, Role::Transition, Role::AbstractEdge, Role::AbstractNode})
    EXPECT_TRUE(b.used.test(StyleKey::of(r).dense())) << role_name(r);
  EXPECT_EQ(b.points.size(), a.stats().nodes);
  // Cluster outlines, entrances and every edge are lines.
  const std::size_t clusters = std::size_t(a.clusters_x() * a.clusters_y());
  EXPECT_EQ(b.lines.size(), 4 * clusters + a.entrances().size() + a.edges().size());
  // Nothing when the layer is off.
  DrawList off;
  off.enable(Layer::Shapes, false);
  draw_haa_abstraction(off, a, map.palette(), Style::standard());
  EXPECT_EQ(off.primitive_count(), 0u);
}

TEST(HaaOverlay, ShowsOnlyWhatTheAgentMayUse) {
  GridMap map;
  const HaaAbstraction a = sample(map);
  const CapabilityMask ground = 1u << kGround, both = ground | 1u << kSwamp;
  std::size_t previous = 0;
  for (auto [cap, size] : {std::pair{ground, 2}, std::pair{ground, 1}, std::pair{both, 1}}) {
    HaaOverlayOptions o = only(true, false);
    o.agent_capability = cap;
    o.agent_size = size;
    DrawList list;
    draw_haa_abstraction(list, a, map.palette(), Style::standard(), o);
    std::size_t want = 0;
    for (const auto& e : a.edges()) want += e.admits(cap, size);
    EXPECT_EQ(list.batch(Layer::Shapes).lines.size(), want);
    EXPECT_GE(want, previous);  // a stronger agent sees more
    previous = want;
    o = only(false, true);
    o.agent_capability = cap;
    o.agent_size = size;
    DrawList ent;
    draw_haa_abstraction(ent, a, map.palette(), Style::standard(), o);
    std::size_t want_ent = 0;
    for (const auto& en : a.entrances())
      want_ent += (en.capability & ~cap) == 0 && size <= en.clearance;
    EXPECT_EQ(ent.batch(Layer::Shapes).lines.size(), want_ent);
  }
  EXPECT_LT(previous, a.edges().size() + 1);
}

TEST(HaaOverlay, CullsToTheVisibleRectangleAndLabels) {
  GridMap map;
  const HaaAbstraction a = sample(map);
  HaaOverlayOptions o = only(true, false);
  o.labels = true;
  DrawList all, part;
  draw_haa_abstraction(all, a, map.palette(), Style::standard(), o);
  EXPECT_EQ(all.batch(Layer::Shapes).texts.size(), a.edges().size());
  const auto& t = all.batch(Layer::Shapes).texts[0];
  EXPECT_NE(all.batch(Layer::Shapes).label(t).find(" >= "), std::string::npos);
  o.visible = MapRect{0, 0, 7.9, 7.9};  // inside the first cluster
  draw_haa_abstraction(part, a, map.palette(), Style::standard(), o);
  EXPECT_LT(part.batch(Layer::Shapes).lines.size(), all.batch(Layer::Shapes).lines.size());
  for (const LinePrim& l : part.batch(Layer::Shapes).lines)
    EXPECT_TRUE(std::min(l.x0, l.x1) <= 7.9f && std::min(l.y0, l.y1) <= 7.9f);
}

TEST(HaaOverlay, CapabilityColoursAndPaths) {
  const Palette& pal = Palette::movingai();
  EXPECT_EQ(capability_colour(pal, 1u << kSwamp), Rgba::from(pal[kSwamp].colour));
  const Rgba mix = capability_colour(pal, 1u << kGround | 1u << kSwamp);
  EXPECT_EQ(int(mix.r), (int(pal[kGround].colour.r) + int(pal[kSwamp].colour.r)) / 2);
  EXPECT_EQ(requirement_label(pal, 1u << kGround | 1u << kSwamp, 2), "ground,swamp >= 2");

  DrawList list;
  const Vec2 abstract_path[] = {{0.5, 0.5}, {4.5, 0.5}, {4.5, 6.5}};
  PathPiece piece;
  piece.line = {{0.5, 0.5}, {4.5, 6.5}};
  const PathPiece refined[] = {piece};
  draw_haa_paths(list, abstract_path, refined, Style::standard());
  const DrawBatch& b = list.batch(Layer::Path);
  EXPECT_EQ(b.lines.size(), 2u + 1u);
  EXPECT_EQ(b.points.size(), 3u);
  EXPECT_TRUE(b.used.test(StyleKey::of(Role::AbstractPath).dense()));
  EXPECT_TRUE(b.used.test(StyleKey::of(Role::Path).dense()));
}

}  // namespace
}  // namespace pl
