// The headless half of drawing (viz/draw.hpp, style.hpp, image.hpp, overlays.hpp): images have
// the right pixels, overlays emit the right primitives in the style's colours at the right
// places (from real planner traces), culling keeps per-cell output to the visible rectangle,
// the difference overlay matches a brute-force comparison, and legends list exactly what was
// drawn.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/clearance.hpp"
#include "core/grid.hpp"
#include "core/scene.hpp"
#include "planners/planner.hpp"
#include "test_util.hpp"
#include "viz/draw.hpp"
#include "viz/image.hpp"
#include "viz/overlays.hpp"
#include "viz/style.hpp"
#include "viz/trace.hpp"

namespace pl {
namespace {

constexpr TerrainId kGround = 0, kSwamp = 1, kTrees = 2, kWater = 3, kBlocked = 4;

// 16 x 10, a wall at x = 7 from y = 0 to 7, so A* must go around its lower end.
Scene wall_scene() {
  Scene s;
  s.map = GridMap(16, 10, kGround);
  for (int y = 0; y <= 7; ++y) s.map.set(7, y, kBlocked);
  s.map.set(3, 8, kSwamp);
  return s;
}

struct Recorded {
  Trace trace;
  PlanResult result;
};

// A grid planner's run, recorded. The grid planners declare the map's Cells space themselves
// (planners/grid_search); declaring it here as well keeps these viewer tests about the viewer:
// a planner's declaration of the same range simply replaces this one.
Recorded record(const Scene& scene, const std::string& planner, Pose start, Pose goal) {
  Query q;
  q.start = start;
  q.goal = goal;
  TraceRecorder rec;
  rec.space(NodeSpace::cells(scene.map.width(), scene.map.height()));
  RunContext ctx;
  ctx.observer = &rec;
  Recorded r;
  r.result = Registry::builtin().create(planner)->plan(scene, q, ctx);
  r.trace = rec.take();
  return r;
}

using CellSet = std::set<std::pair<int, int>>;

// Upper-left corners of the whole-cell rects of colour c (inset ones are excluded).
CellSet cells_of(const DrawBatch& b, Rgba c) {
  CellSet out;
  for (const RectPrim& r : b.rects)
    if (r.colour == c && r.x1 - r.x0 == 1.f && r.y1 - r.y0 == 1.f)
      out.insert({int(r.x0), int(r.y0)});
  return out;
}

// Cells hatched with one diagonal line of colour c each; rising = "/" (lower-left to upper-right).
CellSet hatched_cells(const DrawBatch& b, Rgba c, bool rising) {
  CellSet out;
  for (const LinePrim& l : b.lines) {
    if (l.colour != c || std::abs(l.x1 - l.x0) != 1.f || std::abs(l.y1 - l.y0) != 1.f) continue;
    if (((l.y1 - l.y0) * (l.x1 - l.x0) < 0) != rising) continue;
    out.insert({int(std::min(l.x0, l.x1)), int(std::min(l.y0, l.y1))});
  }
  return out;
}

std::size_t count_colour(const DrawBatch& b, Rgba c) {
  std::size_t n = 0;
  for (const auto& r : b.rects) n += r.colour == c;
  for (const auto& l : b.lines) n += l.colour == c;
  for (const auto& k : b.circles) n += k.colour == c;
  for (const auto& a : b.arrows) n += a.colour == c;
  for (const auto& p : b.points) n += p.colour == c;
  for (const auto& t : b.texts) n += t.colour == c;
  return n;
}

std::set<std::size_t> legend_keys(const DrawList& list) {
  std::set<std::size_t> out;
  for (const LegendEntry& e : build_legend(list, Style::standard())) out.insert(e.key.dense());
  return out;
}

template <class... K>
std::set<std::size_t> keys(K... k) {
  return {StyleKey::of(k).dense()...};
}

// ---- vocabulary, style, colour maps --------------------------------------------------------

TEST(Draw, StyleCoversEveryRoleAndItemWithDistinctColours) {
  const Style& s = Style::standard();
  std::set<std::uint32_t> colours;
  std::set<std::string> labels;
  for (std::size_t d = 0; d < kStyleKeyCount; ++d) {
    const StyleEntry& e = s.entry(StyleKey::from_dense(d));
    EXPECT_FALSE(e.label.empty()) << d;
    EXPECT_GT(e.colour.a, 0) << d;
    colours.insert(e.colour.packed());
    labels.insert(e.label);
    EXPECT_EQ(StyleKey::from_dense(d).dense(), d);
  }
  EXPECT_EQ(colours.size(), kStyleKeyCount) << "two legend entries share a colour";
  EXPECT_EQ(labels.size(), kStyleKeyCount) << "two legend entries share a label";
  EXPECT_EQ(Style::role_of(NodeStatus::Open), Role::Open);
  EXPECT_EQ(Style::role_of(NodeStatus::Closed), Role::Closed);
  EXPECT_EQ((Rgba{1, 2, 3, 4}.packed()), 0x04030201u);
}

// CIE L* of an sRGB colour: the lightness a viewer perceives.
double lightness(Rgba c) {
  auto lin = [](std::uint8_t v) {
    const double s = v / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  const double y = 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  return y > 216.0 / 24389 ? 116 * std::cbrt(y) - 16 : y * 24389.0 / 27;
}

TEST(Draw, ColourMapsRiseInLightness) {
  for (const ColourMap* m : {&ColourMap::ordered(), &ColourMap::thermal()}) {
    const auto& t = m->table();
    for (std::size_t i = 1; i < t.size(); ++i)
      EXPECT_GE(lightness(t[i]), lightness(t[i - 1]) - 1e-9) << i;
    EXPECT_GT(lightness(t.back()) - lightness(t.front()), 60);
    EXPECT_EQ(m->at(-1), t.front());
    EXPECT_EQ(m->at(std::nan("")), t.front());
    EXPECT_EQ(m->at(2), t.back());
    EXPECT_EQ(m->at(0.5), t[128]);
  }
  const ColourMap::Stop bad[] = {{0.0, {}}, {0.5, {}}};
  EXPECT_THROW(ColourMap{bad}, std::invalid_argument);
}

TEST(Draw, DrawListRecordsPerLayerAndDropsDisabledLayers) {
  DrawList list;
  list.set_layer(Layer::Shapes);
  list.text({2.5, 3.5}, "hello", {1, 2, 3, 255}, TextAnchor::Left, 12);
  list.text({4.5, 3.5}, "x", {1, 2, 3, 255});
  list.arc({0, 0}, 2, 1.0, -0.5, {9, 9, 9, 255}, 0);
  list.disc({1, 1}, 0.5, {8, 8, 8, 255});
  list.rect_outline({0, 0}, {2, 1}, {7, 7, 7, 255}, 1);
  list.uses(StyleKey::of(Role::Subgoal));
  const DrawBatch& b = list.batch(Layer::Shapes);
  ASSERT_EQ(b.texts.size(), 2u);
  EXPECT_EQ(b.label(b.texts[0]), "hello");
  EXPECT_EQ(b.label(b.texts[1]), "x");
  EXPECT_EQ(b.texts[0].anchor, TextAnchor::Left);
  ASSERT_EQ(b.circles.size(), 2u);
  // A negative sweep is stored the other way round; an outline never reads as filled.
  EXPECT_FLOAT_EQ(b.circles[0].start, 0.5f);
  EXPECT_FLOAT_EQ(b.circles[0].sweep, 0.5f);
  EXPECT_FALSE(b.circles[0].filled());
  EXPECT_TRUE(b.circles[1].filled());
  EXPECT_EQ(b.lines.size(), 4u);
  EXPECT_TRUE(list.batch(Layer::Terrain).empty());

  list.enable(Layer::Path, false);
  list.set_layer(Layer::Path);
  EXPECT_FALSE(list.wants(Layer::Path));
  list.line({0, 0}, {1, 1}, {1, 1, 1, 255}, 2);
  list.uses(StyleKey::of(Role::Path));
  EXPECT_TRUE(list.batch(Layer::Path).empty());
  EXPECT_EQ(list.primitive_count(), 8u);
  list.clear();
  EXPECT_EQ(list.primitive_count(), 0u);
  EXPECT_TRUE(list.batch(Layer::Shapes).empty());
  EXPECT_FALSE(list.enabled(Layer::Path)) << "clear() keeps the layer switches";
}

// ---- images --------------------------------------------------------------------------------

TEST(Draw, TerrainImageUsesPaletteColours) {
  GridMap m(5, 3, kGround);
  m.set(0, 0, kBlocked);
  m.set(4, 2, kWater);
  m.set(2, 1, kTrees);
  const Image img = terrain_image(m);
  ASSERT_EQ(img.width, 5);
  ASSERT_EQ(img.height, 3);
  ASSERT_EQ(img.pixels.size(), 5u * 3 * 4);
  const Palette& p = m.palette();
  EXPECT_EQ(img.at(0, 0), Rgba::from(p[kBlocked].colour));
  EXPECT_EQ(img.at(4, 2), Rgba::from(p[kWater].colour));
  EXPECT_EQ(img.at(2, 1), Rgba::from(p[kTrees].colour));
  EXPECT_EQ(img.at(1, 0), Rgba::from(p[kGround].colour));
  // Row-major, row 0 first: cell (4, 2) is the last pixel.
  EXPECT_EQ(img.pixels[(2 * 5 + 4) * 4 + 2], p[kWater].colour.b);
}

TEST(Draw, ClearanceImageIsAHeatMapWithTransparentZeros) {
  GridMap m(6, 4, kGround);
  m.set(2, 1, kBlocked);
  const CapabilityMask cap = m.palette().movingai_default_capability();
  const ClearanceGrid c = true_clearance(m, cap);
  HeatRange range;
  const Image img = clearance_image(c, 6, 4, {}, &range);
  ASSERT_EQ(img.width, 6);
  ASSERT_EQ(img.height, 4);
  const int top = *std::max_element(c.begin(), c.end());
  EXPECT_EQ(range.lo, 1);
  EXPECT_EQ(range.hi, top);
  EXPECT_EQ(img.at(2, 1), (Rgba{0, 0, 0, 0}));
  const ColourMap& cm = ColourMap::ordered();
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 6; ++x) {
      const int v = c[std::size_t(y * 6 + x)];
      if (v == 0) continue;
      EXPECT_EQ(img.at(x, y), cm.at(double(v - 1) / (top - 1))) << x << "," << y;
    }
  EXPECT_EQ(img.at(5, 3), cm.table().front()) << "corner cell has clearance 1";

  // A fixed scale saturates above it; a custom empty colour and alpha apply.
  HeatOptions o;
  o.max_value = 2;
  o.empty = {0, 0, 0, 255};
  o.alpha = 128;
  const Image fixed = clearance_image(c, 6, 4, o);
  EXPECT_EQ(fixed.at(2, 1), (Rgba{0, 0, 0, 255}));
  EXPECT_EQ(fixed.at(0, 0), cm.table().back().with_alpha(128));
  EXPECT_THROW(clearance_image(c, 5, 4), std::invalid_argument);
}

TEST(Draw, GImageColoursGridNodesAndIgnoresOthers) {
  const Scene s = wall_scene();
  const Recorded run = record(s, "astar", {1.5, 1.5, 0}, {12.5, 2.5, 0});
  ASSERT_TRUE(run.result.found);
  TraceCursor cur(run.trace);
  cur.seek(cur.last_frame());
  const FrameState& st = cur.state();
  HeatRange range;
  const Image img = g_image(st, 16, 10, {}, &range);
  ASSERT_EQ(img.width, 16);
  ASSERT_EQ(img.height, 10);
  double top = 0;
  for (const NodeState& n : st.nodes()) top = std::max(top, n.g);
  EXPECT_DOUBLE_EQ(range.hi, top);
  EXPECT_EQ(img.at(1, 1), ColourMap::ordered().table().front()) << "start has g = 0";
  std::size_t coloured = 0;
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 16; ++x) {
      const NodeState* n = st.best_at(x, y);
      if (n && std::isfinite(n->g)) {
        EXPECT_EQ(img.at(x, y), ColourMap::ordered().at(n->g / top)) << x << "," << y;
        ++coloured;
      } else {
        EXPECT_EQ(img.at(x, y).a, 0) << x << "," << y;
      }
    }
  EXPECT_GT(coloured, 20u);

  // Only nodes that stand on a cell of this map through their declared space are coloured,
  // wherever their description puts them; ids are never read as cells.
  TraceRecorder rec;
  const NodeSpace cells = NodeSpace::cells(16, 10);                      // ids 0..159
  const NodeSpace corners = NodeSpace::corners(16, 10, 1000);            // 17 x 11 corners
  const NodeSpace other_map = NodeSpace::cells(8, 8, 2000);              // another map's cells
  const NodeSpace headings = NodeSpace::cell_headings(16, 10, 4, 3000);  // 4 headings a cell
  for (const NodeSpace& sp : {cells, corners, other_map, headings}) rec.space(sp);
  NodeDesc undeclared{16 * 10 + 3, 0.5f, 0.5f};    // no space: a free point
  NodeDesc cell{cells.cell_id(5, 0), 9.5f, 9.5f};  // cell (5, 0), whatever its position says
  NodeDesc corner{corners.corner_id(2, 0), 2.0f, 0.0f};
  NodeDesc elsewhere{other_map.cell_id(6, 0), 6.5f, 0.5f};
  rec.open(undeclared, kNoNode, 3, 0);
  rec.open(cell, kNoNode, 3, 0);
  rec.open(corner, kNoNode, 3, 0);
  rec.open(elsewhere, kNoNode, 3, 0);
  // Two headings of cell (9, 4): the cell shows the better (smaller) g.
  rec.open(NodeDesc{headings.heading_id(9, 4, 1)}, kNoNode, 6, 0);
  rec.open(NodeDesc{headings.heading_id(9, 4, 3)}, kNoNode, 1.5, 0);
  rec.frame();
  const Trace t = rec.take();
  TraceCursor c2(t);
  c2.seek(c2.last_frame());
  HeatRange r2;
  const Image only = g_image(c2.state(), 16, 10, {}, &r2);
  std::size_t seen = 0;
  for (std::size_t i = 0; i < only.pixels.size(); i += 4) seen += only.pixels[i + 3] != 0;
  EXPECT_EQ(seen, 2u);
  EXPECT_EQ(r2.hi, 3.0);  // the largest value shown: (5, 0)'s 3, not the worse heading's 6
  EXPECT_EQ(only.at(5, 0), ColourMap::ordered().at(1.0));
  EXPECT_EQ(only.at(9, 4), ColourMap::ordered().at(0.5));
}

// ---- the search-state overlay --------------------------------------------------------------

void expect_nodes_drawn(const DrawList& list, const FrameState& st) {
  const Style& style = Style::standard();
  const DrawBatch& b = list.batch(Layer::Search);
  CellSet want_open, want_closed;
  for (const NodeState& n : st.nodes()) {
    const auto c = st.trace().cell_of(n.desc);
    ASSERT_TRUE(c);
    if (n.status == NodeStatus::Open) want_open.insert({c->x, c->y});
    if (n.status == NodeStatus::Closed) want_closed.insert({c->x, c->y});
  }
  EXPECT_EQ(cells_of(b, style.colour(Role::Open)), want_open);
  EXPECT_EQ(cells_of(b, style.colour(Role::Closed)), want_closed);
  // The current node: one inset rect in the current colour inside its cell, drawn last.
  ASSERT_NE(st.current(), nullptr);
  const int cx = st.trace().cell_of(st.current()->desc)->x;
  const int cy = st.trace().cell_of(st.current()->desc)->y;
  ASSERT_FALSE(b.rects.empty());
  const RectPrim& last = b.rects.back();
  EXPECT_EQ(last.colour, style.colour(Role::Current));
  EXPECT_GT(last.x0, cx);
  EXPECT_LT(last.x1, cx + 1);
  EXPECT_GT(last.y0, cy);
  EXPECT_LT(last.y1, cy + 1);
  EXPECT_EQ(count_colour(b, style.colour(Role::Current)), 1u);
}

TEST(Draw, SearchStateMidwayShowsOpenClosedAndCurrent) {
  const Scene s = wall_scene();
  const Recorded run = record(s, "astar", {1.5, 1.5, 0}, {12.5, 2.5, 0});
  ASSERT_TRUE(run.result.found);
  TraceCursor cur(run.trace);
  cur.seek(cur.last_frame() / 2);
  const FrameState& st = cur.state();
  ASSERT_GT(st.counters().expanded, 3u);
  ASSERT_GT(st.counters().open, 0u);
  ASSERT_TRUE(st.path().empty());

  DrawList list;
  SearchDrawOptions o;
  o.grid_width = 16;
  o.grid_height = 10;
  draw_search_state(list, st, Style::standard(), o);
  expect_nodes_drawn(list, st);
  EXPECT_TRUE(list.batch(Layer::Path).empty()) << "no path yet";
  EXPECT_TRUE(list.batch(Layer::Shapes).empty())
      << "grid A* reports no shapes for usable endpoints";
  EXPECT_EQ(legend_keys(list), keys(Role::Open, Role::Closed, Role::Current));

  // Parent arrows: one per node with a parent, each pointing from the node toward its parent.
  DrawList arrows;
  o.parent_arrows = true;
  draw_search_state(arrows, st, Style::standard(), o);
  std::size_t with_parent = 0;
  for (const NodeState& n : st.nodes()) with_parent += st.parent_of(n) != nullptr;
  const auto& ab = arrows.batch(Layer::Search).arrows;
  ASSERT_EQ(ab.size(), with_parent);
  for (const ArrowPrim& a : ab) {
    const auto at = st.nodes_at(int(a.x0), int(a.y0));
    ASSERT_EQ(at.size(), 1u);
    const NodeState* p = st.parent_of(*at[0]);
    ASSERT_NE(p, nullptr);
    const Vec2 pp = st.trace().position_of(p->desc);
    EXPECT_NEAR(a.x0 + (pp.x - a.x0) * 0.8, a.x1, 1e-5);
    EXPECT_NEAR(a.y0 + (pp.y - a.y0) * 0.8, a.y1, 1e-5);
  }
  EXPECT_TRUE(legend_keys(arrows).count(StyleKey::of(StyleItem::ParentArrow).dense()));
}

TEST(Draw, SearchStateAtTheEndShowsThePath) {
  const Scene s = wall_scene();
  const Recorded run = record(s, "astar", {1.5, 1.5, 0}, {12.5, 2.5, 0});
  ASSERT_TRUE(run.result.found);
  TraceCursor cur(run.trace);
  cur.seek(cur.last_frame());
  const FrameState& st = cur.state();
  ASSERT_FALSE(st.path().empty());

  DrawList list;
  SearchDrawOptions o;
  o.grid_width = 16;
  o.grid_height = 10;
  draw_search_state(list, st, Style::standard(), o);
  expect_nodes_drawn(list, st);
  const DrawBatch& p = list.batch(Layer::Path);
  ASSERT_EQ(p.lines.size(), run.result.pieces.size());
  for (std::size_t i = 0; i < p.lines.size(); ++i) {
    const Segment& seg = run.result.pieces[i].line;
    EXPECT_EQ(p.lines[i].colour, Style::standard().colour(Role::Path));
    EXPECT_FLOAT_EQ(p.lines[i].x0, float(seg.a.x));
    EXPECT_FLOAT_EQ(p.lines[i].y0, float(seg.a.y));
    EXPECT_FLOAT_EQ(p.lines[i].x1, float(seg.b.x));
    EXPECT_FLOAT_EQ(p.lines[i].y1, float(seg.b.y));
  }
  EXPECT_FLOAT_EQ(p.lines.front().x0, 1.5f);
  EXPECT_FLOAT_EQ(p.lines.back().y1, 2.5f);
  // The path must go around the wall's lower end (y = 7) to reach x > 7.
  float deepest = 0;
  for (const LinePrim& l : p.lines) deepest = std::max({deepest, l.y0, l.y1});
  EXPECT_GE(deepest, 8.5f);
  // The goal is the node expanded last.
  EXPECT_EQ(st.trace().cell_of(st.current()->desc), (CellXY{12, 2}));
  const std::set<std::size_t> used = legend_keys(list);
  EXPECT_TRUE(used.count(StyleKey::of(Role::Path).dense()));
  EXPECT_TRUE(used.count(StyleKey::of(Role::Closed).dense()));
  EXPECT_FALSE(used.count(StyleKey::of(StyleItem::ThisFrame).dense()))
      << "the endpoint checks were reported in frame 1, not the last one";
}

TEST(Draw, PlannerShapesUseRoleColoursAndHighlightTheirFrame) {
  // A blocked goal: grid A* reports both endpoint checks as tests in one frame.
  const Scene s = wall_scene();
  const Recorded run = record(s, "astar", {1.5, 1.5, 0}, {7.5, 3.5, 0});
  ASSERT_FALSE(run.result.found);
  TraceCursor cur(run.trace);
  cur.seek(cur.last_frame());
  ASSERT_EQ(cur.state().shapes().size(), 2u);
  const std::size_t shown = cur.state().shapes()[0].frame;
  ASSERT_EQ(shown, cur.last_frame());
  ASSERT_GE(shown, 1u);
  const Style& st = Style::standard();
  const Rgba ok = st.colour(Role::Accepted), bad = st.colour(Role::Rejected);
  DrawList list;
  draw_search_state(list, cur.state(), st);
  const DrawBatch& b = list.batch(Layer::Shapes);
  // Cells: a half-opaque fill in the role's colour and an outline of four lines.
  EXPECT_EQ(cells_of(b, ok.with_alpha(std::uint8_t(ok.a / 2))), (CellSet{{1, 1}}));
  EXPECT_EQ(cells_of(b, bad.with_alpha(std::uint8_t(bad.a / 2))), (CellSet{{7, 3}}));
  EXPECT_EQ(count_colour(b, ok), 4u);
  EXPECT_EQ(count_colour(b, bad), 4u);
  // Both are new in the frame on screen: a halo outline each, drawn before the shape.
  EXPECT_EQ(count_colour(b, st.colour(StyleItem::ThisFrame)), 8u);
  EXPECT_EQ(b.lines.front().colour, st.colour(StyleItem::ThisFrame));
  EXPECT_EQ(legend_keys(list), keys(Role::Accepted, Role::Rejected, StyleItem::ThisFrame));
  SearchDrawOptions plain;
  plain.highlight_this_frame = false;
  DrawList no_halo;
  draw_search_state(no_halo, cur.state(), st, plain);
  EXPECT_EQ(count_colour(no_halo.batch(Layer::Shapes), st.colour(StyleItem::ThisFrame)), 0u);
  EXPECT_EQ(legend_keys(no_halo), keys(Role::Accepted, Role::Rejected));
  cur.seek(shown - 1);
  DrawList before;
  draw_search_state(before, cur.state(), st);
  EXPECT_TRUE(before.batch(Layer::Shapes).empty());
}

TEST(Draw, AgentFilterKeepsOnlyShapesTheAgentMayUse) {
  // Three edges: for everyone, for {ground} agents up to size 2, for {ground, swamp} size 1.
  TraceRecorder rec;
  rec.mark(Shape::segment({0, 0}, {1, 0}), Role::AbstractEdge);
  rec.mark(Shape::segment({0, 1}, {1, 1}).require(0b01, 2), Role::AbstractEdge);
  rec.mark(Shape::segment({0, 2}, {1, 2}).require(0b11, 1), Role::AbstractEdge);
  rec.frame();
  const Trace t = rec.take();
  TraceCursor cur(t);
  cur.seek(cur.last_frame());
  auto lines_for = [&](std::optional<SearchDrawOptions::AgentFilter> f) {
    SearchDrawOptions o;
    o.highlight_this_frame = false;
    o.agent = f;
    DrawList list;
    draw_search_state(list, cur.state(), Style::standard(), o);
    std::set<double> ys;
    for (const LinePrim& l : list.batch(Layer::Shapes).lines) ys.insert(double(l.y0));
    return ys;
  };
  EXPECT_EQ(lines_for(std::nullopt), (std::set<double>{0, 1, 2}));
  EXPECT_EQ(lines_for(SearchDrawOptions::AgentFilter{0b01, 1}), (std::set<double>{0, 1}));
  EXPECT_EQ(lines_for(SearchDrawOptions::AgentFilter{0b01, 3}), (std::set<double>{0}));
  EXPECT_EQ(lines_for(SearchDrawOptions::AgentFilter{0b11, 1}), (std::set<double>{0, 1, 2}));
  EXPECT_EQ(lines_for(SearchDrawOptions::AgentFilter{0b11, 2}), (std::set<double>{0, 1}));
}

// A* across the wall scene, finished, with a cursor at its last frame.
struct FinishedWallSearch {
  Scene s = wall_scene();
  Recorded run = record(s, "astar", {1.5, 1.5, 0}, {1.5, 3.5, 0});
  TraceCursor cur{run.trace};
  FinishedWallSearch() { cur.seek(cur.last_frame()); }
};

TEST(Draw, SearchNumbersLabelEverySeenCellInView) {
  const FinishedWallSearch f;
  const Scene& s = f.s;
  const TraceCursor& cur = f.cur;
  ASSERT_TRUE(f.run.result.found);
  const int w = s.map.width(), h = s.map.height();
  std::size_t seen = 0;
  for (const NodeState& n : cur.state().nodes()) seen += n.status != NodeStatus::Unseen;
  ASSERT_GT(seen, 3u);
  DrawList list;
  const MapRect all{0, 0, double(w), double(h)};
  EXPECT_EQ(draw_search_numbers(list, cur.state(), w, h, all, Style::standard()), seen);
  // Three lines a cell: g, h and f, and g's is the node's g.
  const DrawBatch& b = list.batch(Layer::Search);
  ASSERT_EQ(b.texts.size(), 3 * seen);
  const NodeState* goal = cur.state().best_at(1, 3);
  ASSERT_NE(goal, nullptr);
  char want[32];
  std::snprintf(want, sizeof want, "g %.1f", goal->g);
  bool found = false;
  for (const TextPrim& t : b.texts) found |= b.label(t) == want && int(t.x) == 1 && int(t.y) == 3;
  EXPECT_TRUE(found) << want;
  // Every label reads as printf("%.1f") would print its cell's best node's value.
  for (const TextPrim& t : b.texts) {
    const std::string_view label = b.label(t);
    ASSERT_GE(label.size(), 3u);
    const NodeState* n = cur.state().best_at(int(t.x), int(t.y));
    ASSERT_NE(n, nullptr);
    const double v = label[0] == 'g' ? n->g : label[0] == 'h' ? n->h : n->f();
    std::snprintf(want, sizeof want, "%c %.1f", label[0], v);
    EXPECT_EQ(label, want);
  }
  // Too many cells in view: nothing (the labels would be unreadable anyway).
  DrawList none;
  EXPECT_EQ(draw_search_numbers(none, cur.state(), w, h, all, Style::standard(), {2}), 0u);
  // Only the cells in view.
  DrawList part;
  EXPECT_LT(draw_search_numbers(part, cur.state(), w, h, MapRect{0, 0, 2, 2}, Style::standard()),
            seen);
}

TEST(Draw, ClearanceTopLineLeavesRoomForSearchNumbers) {
  const FinishedWallSearch f;
  const Scene& s = f.s;
  const TraceCursor& cur = f.cur;
  ASSERT_TRUE(f.run.result.found);
  const int w = s.map.width(), h = s.map.height();
  const MapRect all{0, 0, double(w), double(h)};
  const ClearanceGrid c = true_clearance(s.map, s.map.palette().movingai_default_capability());
  const float px = 9;
  ClearanceLabelOptions labels;
  labels.top_line = true;
  labels.size_px = px;
  SearchNumberOptions numbers;
  numbers.below_top_line = true;
  numbers.size_px = px;
  DrawList list;
  ASSERT_GT(draw_clearance_numbers(list, c, w, h, all, Style::standard(), labels), 0u);
  ASSERT_GT(draw_search_numbers(list, cur.state(), w, h, all, Style::standard(), numbers), 0u);
  // Per cell, the label centres (in cells) of every line, clearance's included: four lines
  // where the search has been, each at least a line's height (at 40 pixels a cell, the zoom
  // where numbers appear) from the next, all inside the cell.
  std::map<std::pair<int, int>, std::vector<double>> ys;
  std::map<std::pair<int, int>, std::string> top;
  for (Layer layer : {Layer::Clearance, Layer::Search}) {
    const DrawBatch& b = list.batch(layer);
    for (const TextPrim& t : b.texts) {
      ys[{int(t.x), int(t.y)}].push_back(t.y - std::floor(t.y));
      if (layer == Layer::Clearance) top[{int(t.x), int(t.y)}] = std::string(b.label(t));
    }
  }
  std::size_t four = 0;
  for (auto& [cell, v] : ys) {
    std::sort(v.begin(), v.end());
    if (v.size() == 4) ++four;
    for (std::size_t i = 0; i + 1 < v.size(); ++i)
      EXPECT_GE((v[i + 1] - v[i]) * 40, px) << cell.first << "," << cell.second;
    EXPECT_GE(v.front() * 40, px / 2);
    EXPECT_LE(v.back() * 40, 40 - px / 2);
  }
  EXPECT_GT(four, 3u);
  for (auto& [cell, label] : top)
    EXPECT_EQ(label,
              "c " + std::to_string(
                         c[std::size_t(cell.second) * std::size_t(w) + std::size_t(cell.first)]));
}

TEST(Draw, ArcsInPathsAndShapesAreDrawnAsArcs) {
  TraceRecorder rec;
  PathPiece arc;
  arc.kind = PathPiece::Kind::Arc;
  arc.arc = Arc{{5, 5}, 2, 0.5, -1.0};
  PathPiece line;
  line.line = Segment{{1, 1}, {3, 1}};
  const PathPiece pieces[] = {line, arc};
  rec.mark(Shape::pose(Pose{2, 2, kPi / 2}), Role::Candidate);
  rec.mark(Shape::polyline({{0, 0}, {1, 0}, {1, 1}}), Role::AbstractEdge);
  rec.path(pieces);
  rec.frame();
  const Trace t = rec.take();
  TraceCursor cur(t);
  cur.seek(cur.last_frame());
  DrawList list;
  draw_search_state(list, cur.state(), Style::standard());
  const DrawBatch& p = list.batch(Layer::Path);
  ASSERT_EQ(p.lines.size(), 1u);
  ASSERT_EQ(p.circles.size(), 1u);
  EXPECT_FLOAT_EQ(p.circles[0].radius, 2);
  EXPECT_FLOAT_EQ(p.circles[0].start, -0.5f + float(kTwoPi));
  EXPECT_FLOAT_EQ(p.circles[0].sweep, 1.0f);
  const DrawBatch& s = list.batch(Layer::Shapes);
  // Pose: an arrow one unit along the heading (pi/2 = +y, down on screen), with a halo first.
  ASSERT_EQ(s.arrows.size(), 2u);
  EXPECT_EQ(s.arrows[0].colour, Style::standard().colour(StyleItem::ThisFrame));
  EXPECT_EQ(s.arrows[1].colour, Style::standard().colour(Role::Candidate));
  EXPECT_NEAR(s.arrows[1].x1, 2, 1e-6);
  EXPECT_NEAR(s.arrows[1].y1, 3, 1e-6);
  EXPECT_EQ(count_colour(s, Style::standard().colour(Role::AbstractEdge)), 2u);
}

TEST(Draw, SearchStateCullsToTheVisibleRectangle) {
  const Scene s = wall_scene();
  const Recorded run = record(s, "dijkstra", {1.5, 1.5, 0}, {12.5, 2.5, 0});
  TraceCursor cur(run.trace);
  cur.seek(cur.last_frame());
  const FrameState& st = cur.state();
  const MapRect vis{2.5, 1.0, 6.0, 4.0};  // cells x 2..5, y 1..3
  DrawList list;
  SearchDrawOptions o;
  o.grid_width = 16;
  o.grid_height = 10;
  o.visible = vis;
  draw_search_state(list, st, Style::standard(), o);
  CellSet want;
  for (const NodeState& n : st.nodes()) {
    const auto c = st.trace().cell_of(n.desc);
    ASSERT_TRUE(c);
    if (n.status == NodeStatus::Closed && c->x >= 2 && c->x <= 5 && c->y >= 1 && c->y <= 3)
      want.insert({c->x, c->y});
  }
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(cells_of(list.batch(Layer::Search), Style::standard().colour(Role::Closed)), want);
  for (const RectPrim& r : list.batch(Layer::Search).rects) {
    EXPECT_GE(r.x1, 2.5f);
    EXPECT_LE(r.x0, 6.f);
  }
}

TEST(Draw, NodesThatAreNotCellsAreDots) {
  TraceRecorder rec;
  NodeDesc a{1000, 2.25f, 3.75f};
  NodeDesc b{1001, 4.0f, 4.0f, 0.0f};  // with a heading
  rec.open(a, kNoNode, 0, 1);
  rec.open(b, 1000, 1, 1);
  rec.close(1000);
  rec.frame();
  const Trace t = rec.take();
  TraceCursor cur(t);
  cur.seek(cur.last_frame());
  DrawList list;
  SearchDrawOptions o;
  o.grid_width = 16;
  o.grid_height = 10;
  draw_search_state(list, cur.state(), Style::standard(), o);
  const DrawBatch& b2 = list.batch(Layer::Search);
  EXPECT_TRUE(b2.rects.empty());
  ASSERT_EQ(b2.points.size(), 3u);  // closed a, open b, current a
  EXPECT_EQ(b2.points[0].colour, Style::standard().colour(Role::Closed));
  EXPECT_FLOAT_EQ(b2.points[0].x, 2.25f);
  EXPECT_EQ(b2.points[1].colour, Style::standard().colour(Role::Open));
  EXPECT_EQ(b2.points[2].colour, Style::standard().colour(Role::Current));
  ASSERT_EQ(b2.lines.size(), 1u) << "heading tick";
  EXPECT_FLOAT_EQ(b2.lines[0].x1, 4.4f);
}

// ---- clearance numbers and grid lines ------------------------------------------------------

TEST(Draw, ClearanceNumbersOnlyForVisibleCells) {
  GridMap m(1024, 1024, kGround);
  m.set(15, 25, kBlocked);
  const ClearanceGrid c = true_clearance(m, m.palette().movingai_default_capability());
  DrawList list;
  const MapRect vis{10.5, 20.2, 20.0, 30.0};  // cells x 10..19, y 20..29
  const std::size_t n = draw_clearance_numbers(list, c, 1024, 1024, vis, Style::standard());
  EXPECT_EQ(n, 99u) << "100 cells, one blocked";
  const DrawBatch& b = list.batch(Layer::Clearance);
  ASSERT_EQ(b.texts.size(), 99u);
  std::set<std::pair<int, int>> seen;
  for (const TextPrim& t : b.texts) {
    const int x = int(t.x), y = int(t.y);
    EXPECT_FLOAT_EQ(t.x, x + 0.5f);
    EXPECT_FLOAT_EQ(t.y, y + 0.5f);
    EXPECT_TRUE(x >= 10 && x < 20 && y >= 20 && y < 30) << x << "," << y;
    EXPECT_EQ(b.label(t), std::to_string(c[std::size_t(y) * 1024 + std::size_t(x)]));
    seen.insert({x, y});
  }
  EXPECT_EQ(seen.size(), 99u);
  EXPECT_FALSE(seen.count({15, 25}));
  EXPECT_EQ(b.label(b.texts.front()), std::to_string(c[20 * 1024 + 10]));

  ClearanceLabelOptions zero;
  zero.show_zero = true;
  DrawList with_zero;
  EXPECT_EQ(draw_clearance_numbers(with_zero, c, 1024, 1024, vis, Style::standard(), zero), 100u);

  // The whole map is far too many labels: nothing at all, and the caller is told.
  DrawList all;
  EXPECT_EQ(
      draw_clearance_numbers(all, c, 1024, 1024, MapRect::of_map(1024, 1024), Style::standard()),
      0u);
  EXPECT_TRUE(all.batch(Layer::Clearance).empty());
  // Off the map: nothing.
  EXPECT_EQ(draw_clearance_numbers(all, c, 1024, 1024, {-50, -50, -10, -10}, Style::standard()),
            0u);
  EXPECT_EQ(build_legend(list, Style::standard()).size(), 1u);
}

TEST(Draw, GridLinesOnlyForTheVisibleRectangle) {
  DrawList list;
  const std::size_t n = draw_grid_lines(list, 10, 10, {2.5, 3.5, 6.0, 8.0}, Style::standard(), 1.f);
  // Vertical lines x = 3, 4, 5, 6 and horizontal y = 4..8, clipped to the rectangle.
  EXPECT_EQ(n, 9u);
  const DrawBatch& b = list.batch(Layer::Terrain);
  ASSERT_EQ(b.lines.size(), 9u);
  std::vector<float> xs, ys;
  for (const LinePrim& l : b.lines) {
    if (l.x0 == l.x1) {
      xs.push_back(l.x0);
      EXPECT_FLOAT_EQ(l.y0, 3.5f);
      EXPECT_FLOAT_EQ(l.y1, 8.f);
    } else {
      ys.push_back(l.y0);
      EXPECT_FLOAT_EQ(l.x0, 2.5f);
      EXPECT_FLOAT_EQ(l.x1, 6.f);
    }
  }
  EXPECT_EQ(xs, (std::vector<float>{3, 4, 5, 6}));
  EXPECT_EQ(ys, (std::vector<float>{4, 5, 6, 7, 8}));

  // Clipped to the map: a view wider than the map draws the map's 11 + 11 borders.
  DrawList wide;
  EXPECT_EQ(draw_grid_lines(wide, 10, 10, {-100, -100, 100, 100}, Style::standard()), 22u);
  for (const LinePrim& l : wide.batch(Layer::Terrain).lines) {
    EXPECT_GE(std::min(l.x0, l.y0), 0.f);
    EXPECT_LE(std::max(l.x1, l.y1), 10.f);
  }
  // Every 4th line of a 1024 map: 0, 4, ..., 1024 on each axis.
  DrawList coarse;
  EXPECT_EQ(
      draw_grid_lines(coarse, 1024, 1024, MapRect::of_map(1024, 1024), Style::standard(), 1.f, 4),
      2u * 257);
}

// ---- agents and circles --------------------------------------------------------------------

TEST(Draw, AgentFootprintRadiusHeadingAndMarkers) {
  Agent a;
  a.name = "tank";
  a.size = 2;
  a.radius = 0.75;
  a.turning_radius = 2;
  a.start = {3.5, 4.5, kPi / 2};  // facing down the screen
  a.goal = {10.5, 1.5, 0};
  AgentDrawOptions o;
  o.turning_circles = true;
  DrawList list;
  draw_agent(list, a, Style::standard(), o);
  const Style& st = Style::standard();
  const DrawBatch& b = list.batch(Layer::Agents);
  // Footprint: the 2 x 2 cells whose upper-left is the start cell (3, 4).
  ASSERT_FALSE(b.rects.empty());
  EXPECT_EQ(b.rects[0].x0, 3.f);
  EXPECT_EQ(b.rects[0].y0, 4.f);
  EXPECT_EQ(b.rects[0].x1, 5.f);
  EXPECT_EQ(b.rects[0].y1, 6.f);
  // Radius circle at the start position.
  bool radius_found = false;
  for (const CirclePrim& c : b.circles)
    radius_found |= c.cx == 3.5f && c.cy == 4.5f && c.radius == 0.75f &&
                    c.colour == st.colour(StyleItem::Agent);
  EXPECT_TRUE(radius_found);
  // Turning circles: right of a south-facing agent is west (heading + pi/2 = pi), left is east.
  std::set<std::pair<float, float>> turning;
  for (const CirclePrim& c : b.circles)
    if (c.colour == st.colour(StyleItem::TurningCircle)) turning.insert({c.cx, c.cy});
  ASSERT_EQ(turning.size(), 2u);
  EXPECT_NEAR(turning.begin()->first, 1.5, 1e-5);
  EXPECT_NEAR(std::prev(turning.end())->first, 5.5, 1e-5);
  // Heading arrows: down from the start, east from the goal.
  ASSERT_EQ(b.arrows.size(), 2u);
  EXPECT_EQ(b.arrows[0].colour, st.colour(StyleItem::Agent));
  EXPECT_NEAR(b.arrows[0].x1, 3.5, 1e-5);
  EXPECT_GT(b.arrows[0].y1, 4.5f);
  EXPECT_EQ(b.arrows[1].colour, st.colour(Role::Goal));
  EXPECT_GT(b.arrows[1].x1, 10.5f);
  EXPECT_NEAR(b.arrows[1].y1, 1.5, 1e-5);
  // Start and goal markers.
  std::set<std::tuple<float, float, std::uint32_t>> pts;
  for (const PointPrim& p : b.points) pts.insert({p.x, p.y, p.colour.packed()});
  EXPECT_TRUE(pts.count({3.5f, 4.5f, st.colour(Role::Start).packed()}));
  EXPECT_TRUE(pts.count({10.5f, 1.5f, st.colour(Role::Goal).packed()}));
  ASSERT_EQ(b.texts.size(), 1u);
  EXPECT_EQ(b.label(b.texts[0]), "tank");
  EXPECT_EQ(legend_keys(list),
            keys(Role::Start, Role::Goal, StyleItem::Agent, StyleItem::TurningCircle));
}

TEST(Draw, SceneCirclesAndInflation) {
  const Circle cs[] = {{5, 5, 2}, {10, 3, 1}};
  DrawList list;
  draw_scene_circles(list, cs, Style::standard(), 0.5);
  const DrawBatch& b = list.batch(Layer::Terrain);
  std::size_t discs = 0, grown = 0;
  for (const CirclePrim& c : b.circles) {
    discs += c.filled();
    grown += c.colour == Style::standard().colour(StyleItem::Inflation);
    if (c.colour == Style::standard().colour(StyleItem::Inflation)) {
      EXPECT_TRUE(c.radius == 2.5f || c.radius == 1.5f);
    }
  }
  EXPECT_EQ(discs, 2u);
  EXPECT_EQ(grown, 2u);
  EXPECT_EQ(legend_keys(list), keys(Role::Obstacle, StyleItem::Inflation));
}

// ---- difference overlay --------------------------------------------------------------------

// Compares closed_difference and its drawing with a brute-force scan of every cell, at a few
// lockstep fractions of the two traces. Returns whether some frame had cells on both sides.
bool check_difference(const Scene& s, Pose start, Pose goal) {
  const int w = s.map.width(), h = s.map.height();
  const Recorded a = record(s, "astar", start, goal);
  const Recorded b = record(s, "dijkstra", start, goal);
  EXPECT_TRUE(a.result.found);
  EXPECT_TRUE(b.result.found);
  TraceCursor ca(a.trace), cb(b.trace);
  bool saw_both_sides = false;
  for (const double frac : {0.1, 0.5, 1.0}) {
    ca.seek(std::size_t(double(ca.last_frame()) * frac));
    cb.seek(std::size_t(double(cb.last_frame()) * frac));
    const ClosedDifference d = closed_difference(ca.state(), cb.state(), w, h);
    std::vector<std::uint32_t> only_a, only_b;
    std::size_t both = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::uint32_t id = std::uint32_t(y * w + x);  // a cell index, as the result gives
        const NodeState* na = ca.state().best_at(x, y);
        const NodeState* nb = cb.state().best_at(x, y);
        const bool in_a = na && na->status == NodeStatus::Closed;
        const bool in_b = nb && nb->status == NodeStatus::Closed;
        if (in_a && !in_b) only_a.push_back(id);
        if (in_b && !in_a) only_b.push_back(id);
        both += in_a && in_b;
      }
    EXPECT_EQ(d.only_a, only_a) << frac;
    EXPECT_EQ(d.only_b, only_b) << frac;
    EXPECT_EQ(d.both, both) << frac;
    if (frac == 1.0) {
      EXPECT_FALSE(d.only_b.empty()) << "Dijkstra expands cells A* never needs";
      EXPECT_GT(d.both, 0u);
    }
    saw_both_sides |= !d.only_a.empty() && !d.only_b.empty();

    DrawList list;
    draw_closed_difference(list, d, w, Style::standard());
    const DrawBatch& batch = list.batch(Layer::Search);
    CellSet want_a, want_b;
    for (std::uint32_t i : only_a) want_a.insert({int(i) % w, int(i) / w});
    for (std::uint32_t i : only_b) want_b.insert({int(i) % w, int(i) / w});
    // Hatched, never filled: the closed colour under them stays the same in both views.
    EXPECT_EQ(hatched_cells(batch, Style::standard().colour(StyleItem::OnlyA), true), want_a);
    EXPECT_EQ(hatched_cells(batch, Style::standard().colour(StyleItem::OnlyB), false), want_b);
    EXPECT_EQ(batch.lines.size(), only_a.size() + only_b.size());
    EXPECT_TRUE(batch.rects.empty());

    // Culled to a window: only the cells inside it.
    DrawList culled;
    const MapRect vis{w * 0.2, h * 0.2, w * 0.45, h * 0.45};
    draw_closed_difference(culled, d, w, Style::standard(), vis);
    std::size_t inside = 0;
    for (std::uint32_t i : only_a) inside += vis.overlaps_cell(int(i) % w, int(i) / w);
    for (std::uint32_t i : only_b) inside += vis.overlaps_cell(int(i) % w, int(i) / w);
    EXPECT_EQ(culled.batch(Layer::Search).lines.size(), inside);
  }
  return saw_both_sides;
}

// Issue 11 (readability of turning searches): passed tests of earlier frames stay off the map
// unless their history is asked for; those of the frame on screen show.
TEST(Draw, PassedTestsOfEarlierFramesOnlyOnRequest) {
  TraceRecorder rec;
  rec.test(Shape::segment({0, 0}, {1, 0}), true);  // frame 1
  rec.mark(Shape::segment({0, 5}, {1, 5}), Role::Candidate);
  rec.frame();
  rec.test(Shape::segment({0, 1}, {1, 1}), true);  // frame 2
  rec.frame();
  const Trace t = rec.take();
  TraceCursor cur(t);
  cur.seek(2);
  const Style& st = Style::standard();
  auto rows = [&](bool history, Role role) {
    SearchDrawOptions o;
    o.passed_history = history;
    DrawList list;
    draw_search_state(list, cur.state(), st, o);
    std::set<float> r;
    for (const LinePrim& l : list.batch(Layer::Shapes).lines)
      if (l.colour == st.colour(role)) r.insert(l.y0);
    return r;
  };
  EXPECT_EQ(rows(false, Role::Accepted), (std::set<float>{1.f}));
  EXPECT_EQ(rows(true, Role::Accepted), (std::set<float>{0.f, 1.f}));
  // What a planner marks (what it keeps) stays either way.
  EXPECT_EQ(rows(false, Role::Candidate), (std::set<float>{5.f}));
}

// Issue 10 item 7: goal, current node and "test failed" are told apart, and neither the
// difference hatches nor the current node look like open or closed.
// Issue 10 item 6: failed tests of earlier frames stay off the map unless asked for; those of
// the frame on screen show.
TEST(Draw, FailedTestsOfEarlierFramesOnlyOnRequest) {
  TraceRecorder rec;
  rec.test(Shape::segment({0, 0}, {1, 0}), false);  // frame 1
  rec.test(Shape::segment({0, 1}, {1, 1}), true);
  rec.frame();
  rec.test(Shape::segment({0, 2}, {1, 2}), false);  // frame 2
  rec.frame();
  rec.mark(Shape::segment({0, 3}, {1, 3}), Role::AbstractEdge);  // frame 3
  rec.frame();
  const Trace t = rec.take();
  TraceCursor cur(t);
  const Style& st = Style::standard();
  const Rgba bad = st.colour(Role::Rejected);
  auto rejected_rows = [&](const SearchDrawOptions& o) {
    DrawList list;
    draw_search_state(list, cur.state(), st, o);
    std::set<float> rows;
    for (const LinePrim& l : list.batch(Layer::Shapes).lines)
      if (l.colour == bad) rows.insert(l.y0);
    return rows;
  };
  SearchDrawOptions now_only;
  now_only.rejected_history = false;
  SearchDrawOptions all;
  cur.seek(2);
  EXPECT_EQ(rejected_rows(now_only), (std::set<float>{2.f}));
  EXPECT_EQ(rejected_rows(all), (std::set<float>{0.f, 2.f}));
  cur.seek(cur.last_frame());
  EXPECT_TRUE(rejected_rows(now_only).empty());
  EXPECT_EQ(rejected_rows(all), (std::set<float>{0.f, 2.f}));
  // A shape marked and later rejected (same geometry and requirement, an HAA* candidate edge
  // removed by dominance) is withdrawn with the failed test, unless the history is asked for.
  {
    TraceRecorder r2;
    r2.mark(Shape::segment({0, 5}, {4, 5}).require(1u, 2), Role::Candidate);  // frame 1
    r2.mark(Shape::segment({0, 6}, {4, 6}).require(1u, 2), Role::Candidate);
    r2.mark(Shape::segment({0, 7}, {4, 7}).require(1u, 2), Role::Candidate);  // two equal edges:
    r2.mark(Shape::segment({0, 7}, {4, 7}).require(1u, 2), Role::Candidate);  // one is removed
    r2.frame();
    r2.test(Shape::segment({0, 7}, {4, 7}).require(1u, 2), false);
    r2.test(Shape::segment({0, 5}, {4, 5}).require(1u, 2), false);  // frame 2
    r2.test(Shape::segment({0, 6}, {4, 6}).require(1u, 1), false);  // another requirement
    r2.frame();
    r2.mark(Shape::segment({0, 5}, {4, 5}).require(1u, 2), Role::AbstractEdge);  // frame 3
    r2.frame();
    const Trace t2 = r2.take();
    TraceCursor c2(t2);
    c2.seek(c2.last_frame());
    auto candidate_rows = [&](const SearchDrawOptions& o) {
      DrawList l;
      draw_search_state(l, c2.state(), st, o);
      std::set<float> rows;
      for (const LinePrim& p : l.batch(Layer::Shapes).lines)
        if (p.colour == st.colour(Role::Candidate)) rows.insert(p.y0);
      return rows;
    };
    EXPECT_EQ(candidate_rows(now_only), (std::set<float>{6.f, 7.f}));
    EXPECT_EQ(candidate_rows(all), (std::set<float>{5.f, 6.f, 7.f}));
    // Of the two equal edges one stays; a mark after the failed test (the planner's final
    // graph) is not withdrawn.
    std::size_t sevens = 0, final_edges = 0;
    DrawList l;
    draw_search_state(l, c2.state(), st, now_only);
    for (const LinePrim& p : l.batch(Layer::Shapes).lines) {
      sevens += p.colour == st.colour(Role::Candidate) && p.y0 == 7.f;
      final_edges += p.colour == st.colour(Role::AbstractEdge) && p.y0 == 5.f;
    }
    EXPECT_EQ(sevens, 1u);
    EXPECT_EQ(final_edges, 1u);
  }
  // What was built stays: the accepted test and the mark.
  DrawList list;
  draw_search_state(list, cur.state(), st, now_only);
  std::size_t accepted = 0, edges = 0;
  for (const LinePrim& l : list.batch(Layer::Shapes).lines) {
    accepted += l.colour == st.colour(Role::Accepted);
    edges += l.colour == st.colour(Role::AbstractEdge);
  }
  EXPECT_EQ(accepted, 1u);
  EXPECT_EQ(edges, 1u);
}

TEST(Draw, StyleColoursThatMustNotBeConfused) {
  const Style& st = Style::standard();
  auto dist = [](Rgba a, Rgba b) {
    return std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b);
  };
  const std::vector<std::pair<const char*, Rgba>> c{
      {"goal", st.colour(Role::Goal)},          {"current", st.colour(Role::Current)},
      {"rejected", st.colour(Role::Rejected)},  {"open", st.colour(Role::Open)},
      {"closed", st.colour(Role::Closed)},      {"only A", st.colour(StyleItem::OnlyA)},
      {"only B", st.colour(StyleItem::OnlyB)},  {"path", st.colour(Role::Path)},
      {"highlight", st.colour(Role::Highlight)}};
  for (std::size_t i = 0; i < c.size(); ++i)
    for (std::size_t j = i + 1; j < c.size(); ++j)
      EXPECT_GE(dist(c[i].second, c[j].second), 120) << c[i].first << " vs " << c[j].first;
}

TEST(Draw, DifferenceOverlayMatchesBruteForce) {
  // A search over most of a small map (the per-cell scan inside closed_difference)...
  std::mt19937 rng(7);
  Scene s;
  s.map = test::random_map(rng, 48, 32, {kGround, kBlocked, kSwamp}, {0.72, 0.22, 0.06});
  s.map.set(2, 2, kGround);
  s.map.set(44, 28, kGround);
  // Midway, A* has pushed toward the goal where Dijkstra has not, and vice versa.
  EXPECT_TRUE(check_difference(s, {2.5, 2.5, 0}, {44.5, 28.5, 0}));
  // ... and a short search on a big map (the sorted closed sets).
  Scene big;
  big.map = test::random_map(rng, 400, 300, {kGround, kBlocked}, {0.8, 0.2});
  big.map.set(200, 150, kGround);
  big.map.set(206, 153, kGround);
  check_difference(big, {200.5, 150.5, 0}, {206.5, 153.5, 0});
}

// ---- legends -------------------------------------------------------------------------------

TEST(Draw, LegendListsExactlyTheUsedRoles) {
  TraceRecorder rec;
  rec.space(NodeSpace::cells(4, 1));
  rec.open(NodeDesc{0, 0.5f, 0.5f}, kNoNode, 0, 2);
  rec.open(NodeDesc{1, 1.5f, 0.5f}, 0, 1, 1);
  rec.close(0);
  rec.frame();
  rec.mark(Shape::cell(3, 0), Role::Subgoal);
  rec.test(Shape::segment({0.5, 0.5}, {3.5, 0.5}), false);
  rec.frame();
  const Trace t = rec.take();
  TraceCursor cur(t);
  cur.seek(cur.last_frame());
  SearchDrawOptions o;
  o.grid_width = 4;
  o.grid_height = 1;
  DrawList list;
  draw_search_state(list, cur.state(), Style::standard(), o);
  EXPECT_EQ(legend_keys(list), keys(Role::Open, Role::Closed, Role::Current, Role::Rejected,
                                    Role::Subgoal, StyleItem::ThisFrame));
  // Entries come in key order with the style's colours and labels.
  const auto legend = build_legend(list, Style::standard());
  ASSERT_EQ(legend.size(), 6u);
  EXPECT_EQ(legend[0].key, StyleKey::of(Role::Open));
  EXPECT_EQ(legend[0].label, Style::standard().entry(StyleKey::of(Role::Open)).label);
  EXPECT_EQ(legend.back().key, StyleKey::of(StyleItem::ThisFrame));

  // A custom style relabels without redrawing.
  Style mine = Style::standard();
  mine.entry(StyleKey::of(Role::Subgoal)).label = "waypoint";
  bool relabelled = false;
  for (const LegendEntry& e : build_legend(list, mine)) relabelled |= e.label == "waypoint";
  EXPECT_TRUE(relabelled);

  // Switching a layer off removes its entries; a layer switched off before drawing gets none.
  list.enable(Layer::Shapes, false);
  EXPECT_EQ(legend_keys(list), keys(Role::Open, Role::Closed, Role::Current));
  DrawList off;
  off.enable(Layer::Search, false);
  draw_search_state(off, cur.state(), Style::standard(), o);
  EXPECT_TRUE(off.batch(Layer::Search).empty());
  EXPECT_EQ(legend_keys(off), keys(Role::Rejected, Role::Subgoal, StyleItem::ThisFrame));

  // One frame earlier the shapes did not exist yet.
  cur.seek(1);
  DrawList early;
  draw_search_state(early, cur.state(), Style::standard(), o);
  EXPECT_EQ(legend_keys(early), keys(Role::Open, Role::Closed, Role::Current));
}

// A planner names what its roles stand for; the legend of its trace uses those names, a trace
// without them the style's, and the next recording of the same recorder starts without them.
TEST(Draw, LegendTakesThePlannersNamesForItsRoles) {
  TraceRecorder rec;
  rec.role_name(Role::Candidate, "first name");
  rec.mark(Shape::segment({0.5, 0.5}, {3.5, 0.5}), Role::Candidate);
  rec.role_name(Role::Candidate, "jump");  // the last name counts
  rec.mark(Shape::cell(1, 0), Role::Highlight);
  rec.frame();
  const Trace named = rec.take();
  EXPECT_EQ(named.role_name(Role::Candidate), "jump");
  EXPECT_EQ(named.role_name(Role::Highlight), "");
  rec.mark(Shape::segment({0.5, 0.5}, {3.5, 0.5}), Role::Candidate);
  rec.frame();
  const Trace plain = rec.take();
  EXPECT_EQ(plain.role_name(Role::Candidate), "");

  auto labels = [](const Trace& t, const Trace* names) {
    TraceCursor cur(t);
    cur.seek(cur.last_frame());
    DrawList list;
    draw_search_state(list, cur.state(), Style::standard(), {});
    std::map<StyleKey::Kind, std::vector<std::string>> out;
    for (const LegendEntry& e : build_legend(list, Style::standard(), names))
      if (e.key == StyleKey::of(Role::Candidate) || e.key == StyleKey::of(Role::Highlight))
        out[e.key.kind].push_back(e.label);
    return out[StyleKey::Kind::Role];
  };
  const std::string candidate = Style::standard().entry(StyleKey::of(Role::Candidate)).label;
  const std::string highlight = Style::standard().entry(StyleKey::of(Role::Highlight)).label;
  EXPECT_EQ(labels(named, &named), (std::vector<std::string>{"jump", highlight}));
  EXPECT_EQ(labels(named, nullptr), (std::vector<std::string>{candidate, highlight}));
  EXPECT_EQ(labels(plain, &plain), (std::vector<std::string>{candidate}));
}

TEST(Draw, ShapeHistoryKeepsOnlyRecentShapes) {
  TraceRecorder rec;
  rec.test(Shape::segment({0, 0}, {1, 0}), true);
  rec.frame();
  rec.test(Shape::segment({0, 1}, {1, 1}), false);
  rec.frame();
  rec.frame();
  const Trace t = rec.take();
  TraceCursor cur(t);
  cur.seek(3);
  SearchDrawOptions o;
  o.highlight_this_frame = false;
  DrawList all;
  draw_search_state(all, cur.state(), Style::standard(), o);
  EXPECT_EQ(all.batch(Layer::Shapes).lines.size(), 2u);
  o.shape_history = 2;  // frames 2 and 3
  DrawList recent;
  draw_search_state(recent, cur.state(), Style::standard(), o);
  ASSERT_EQ(recent.batch(Layer::Shapes).lines.size(), 1u);
  EXPECT_EQ(recent.batch(Layer::Shapes).lines[0].y0, 1.f);
  EXPECT_EQ(legend_keys(recent), keys(Role::Rejected));
}

}  // namespace
}  // namespace pl
