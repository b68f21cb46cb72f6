// Node spaces through the viewer (DESIGN.md section 3): a fake planner per kind of space
// (tests/fake_planners.hpp: Cells, Corners, CellHeadings with k = 8, Layer, Points) reports
// through a TraceRecorder, and replay (FrameState), the timeline (cell breakpoints) and the
// overlays must answer every question about a node through the space it was declared in: its
// cell, corner, heading, position, level and label; wedges, dots and cells where they belong.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "fake_planners.hpp"
#include "viz/draw.hpp"
#include "viz/image.hpp"
#include "viz/overlays.hpp"
#include "viz/posthoc.hpp"
#include "viz/style.hpp"
#include "viz/timeline.hpp"
#include "viz/trace.hpp"

namespace pl {
namespace {

Trace record(const test::FakeGraph& f) {
  TraceRecorder rec;
  f.search(rec);
  return rec.take();
}

// 10 x 6, a wall at x = 4 from y = 0 to 3 (a detour through the bottom rows).
Scene wall_scene() {
  Scene s;
  s.map = GridMap(10, 6);
  for (int y = 0; y <= 3; ++y) s.map.set(4, y, 4);
  return s;
}

Query query(Pose start, Pose goal) {
  Query q;
  q.start = start;
  q.goal = goal;
  return q;
}

Trace record_headings(const Scene& scene, const Query& q, int k = 8) {
  TraceRecorder rec;
  RunContext ctx;
  ctx.observer = &rec;
  test::HeadingsPlanner(k).plan(scene, q, ctx);
  return rec.take();
}

// The frame at which each node id was first opened / first closed, by replaying frame by frame.
struct FirstFrames {
  std::map<std::uint32_t, std::size_t> opened, closed;
};
FirstFrames first_frames(const Trace& t) {
  FirstFrames out;
  TraceCursor c(t);
  for (std::size_t f = 1; f <= c.last_frame(); ++f) {
    c.step_forward();
    for (const NodeState& n : c.state().nodes()) {
      if (n.status != NodeStatus::Unseen) out.opened.emplace(n.desc.id, f);
      if (n.status == NodeStatus::Closed) out.closed.emplace(n.desc.id, f);
    }
  }
  return out;
}

const NodeSpace& only_space(const Trace& t, NodeSpace::Kind kind) {
  const NodeSpace* found = nullptr;
  for (const NodeSpace& s : t.spaces())
    if (s.kind == kind) found = &s;
  EXPECT_NE(found, nullptr);
  return *found;
}

double angle_diff(double a, double b) { return std::abs(std::remainder(a - b, 2 * kPi)); }

// ---- replay ---------------------------------------------------------------------------------

// What each fake node must be, checked through the trace's answers alone.
void expect_graph_replayed(const test::FakeGraph& f) {
  SCOPED_TRACE(f.space.name);
  const Trace t = record(f);
  ASSERT_EQ(t.spaces().size(), 1u);
  EXPECT_EQ(t.spaces()[0], f.space);
  TraceCursor c(t);
  c.seek(c.last_frame());
  const FrameState& s = c.state();
  ASSERT_EQ(s.nodes().size(), f.nodes.size()) << "every node of the connected graph is reached";
  for (const test::FakeGraph::Node& want : f.nodes) {
    const NodeState* n = s.node_by_id(want.id);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->status, NodeStatus::Closed);
    const NodeSpace* sp = t.space_of(n->desc);
    ASSERT_NE(sp, nullptr);
    EXPECT_EQ(sp->kind, f.space.kind);
    // Grid spaces give exact positions; others keep what the planner described (floats).
    EXPECT_NEAR(t.position_of(n->desc).x, want.at.x, 1e-5);
    EXPECT_NEAR(t.position_of(n->desc).y, want.at.y, 1e-5);
    if (f.space.on_grid()) {
      EXPECT_EQ(t.position_of(n->desc), want.at);
    }
    const int cx = int(std::floor(want.at.x)), cy = int(std::floor(want.at.y));
    switch (f.space.kind) {
      case NodeSpace::Kind::Cells:
        EXPECT_EQ(t.cell_of(n->desc), (CellXY{cx, cy}));
        EXPECT_FALSE(t.corner_of(n->desc));
        EXPECT_EQ(t.label_of(n->desc), "cell (" + std::to_string(cx) + "," + std::to_string(cy) + ")");
        EXPECT_EQ(s.nodes_at(cx, cy), std::vector<const NodeState*>{n});
        break;
      case NodeSpace::Kind::Corners:
        EXPECT_EQ(t.corner_of(n->desc), (CellXY{cx, cy}));
        EXPECT_FALSE(t.cell_of(n->desc));
        EXPECT_EQ(t.label_of(n->desc), "corner (" + std::to_string(cx) + "," + std::to_string(cy) + ")");
        break;
      case NodeSpace::Kind::Layer:
      case NodeSpace::Kind::Points:
        EXPECT_FALSE(t.cell_of(n->desc));
        EXPECT_FALSE(t.corner_of(n->desc));
        // The planner's own label, copied while it was valid; else the space's default one.
        EXPECT_EQ(t.label_of(n->desc),
                  want.label.empty() ? f.space.name + " " + std::to_string(want.id - f.space.base)
                                     : want.label);
        break;
      case NodeSpace::Kind::CellHeadings:
        break;
    }
    EXPECT_EQ(t.level_of(n->desc), f.space.kind == NodeSpace::Kind::Layer ? 1 : 0);
    EXPECT_EQ(t.heading_index_of(n->desc), -1);
    if (std::isnan(want.heading))
      EXPECT_TRUE(std::isnan(t.heading_of(n->desc)));
    else
      EXPECT_FLOAT_EQ(float(t.heading_of(n->desc)), want.heading);
  }
  // Grid nodes are never cells of a corner space and vice versa: no cell holds a corner.
  if (f.space.kind != NodeSpace::Kind::Cells) {
    EXPECT_TRUE(s.nodes_at(1, 1).empty());
  }
}

TEST(NodeSpaces, CellsCornersLayerAndPointsReplayThroughTheirSpace) {
  expect_graph_replayed(test::cells_graph(6, 4));
  expect_graph_replayed(test::corners_graph(6, 4));
  expect_graph_replayed(test::corners_graph(6, 4, 500));  // a base shifts ids, not meaning
  expect_graph_replayed(test::layer_graph(70000));
  expect_graph_replayed(test::points_graph(1u << 30));
}

TEST(NodeSpaces, CellHeadingsReplayAsCellsAndHeadings) {
  const Scene scene = wall_scene();
  const Trace t = record_headings(scene, query({1.5, 1.5, 0}, {8.5, 1.5, 0}));
  const NodeSpace& sp = only_space(t, NodeSpace::Kind::CellHeadings);
  EXPECT_EQ(sp.headings, 8);
  TraceCursor c(t);
  c.seek(c.last_frame());
  const FrameState& s = c.state();
  ASSERT_GT(s.nodes().size(), 40u);
  std::set<std::pair<int, int>> cells_seen;
  std::size_t shared = 0;
  for (const NodeState& n : s.nodes()) {
    if (n.status == NodeStatus::Unseen) continue;
    const auto cell = t.cell_of(n.desc);
    ASSERT_TRUE(cell);
    // The described position is the cell centre and the described heading the space's.
    EXPECT_EQ(*cell, (CellXY{int(n.desc.x), int(n.desc.y)}));
    const int i = t.heading_index_of(n.desc);
    ASSERT_GE(i, 0);
    ASSERT_LT(i, 8);
    EXPECT_NEAR(t.heading_of(n.desc), i * kPi / 4, 1e-12);
    EXPECT_NEAR(angle_diff(t.heading_of(n.desc), n.desc.heading), 0, 1e-6);
    EXPECT_EQ(t.position_of(n.desc), (Vec2{cell->x + 0.5, cell->y + 0.5}));
    EXPECT_NE(t.label_of(n.desc).find("heading " + std::to_string(i) + "/8"), std::string::npos);
    cells_seen.insert({cell->x, cell->y});
  }
  // Each cell's nodes are its distinct headings; the best is the open list's first.
  for (const auto& [x, y] : cells_seen) {
    const auto at = s.nodes_at(x, y);
    ASSERT_FALSE(at.empty());
    std::set<int> headings;
    for (const NodeState* n : at) {
      EXPECT_EQ(t.cell_of(n->desc), (CellXY{x, y}));
      headings.insert(t.heading_index_of(n->desc));
    }
    EXPECT_EQ(headings.size(), at.size());
    shared += at.size() > 1;
    const NodeState* best = s.best_at(x, y);
    for (const NodeState* n : at) EXPECT_FALSE(FrameState::better(*n, *best));
    // One heading only.
    const int i = t.heading_index_of(at.back()->desc);
    EXPECT_EQ(s.nodes_at(x, y, i), std::vector<const NodeState*>{at.back()});
  }
  EXPECT_GT(shared, 5u) << "turning on the spot gives cells several headings";
  EXPECT_TRUE(t.has_headings());
}

TEST(NodeSpaces, NodesOutsideEverySpaceAreFreePoints) {
  TraceRecorder rec;
  // Named before any space contains it: its space is looked up once, when it is first seen.
  rec.open(NodeDesc{5, 9.25f, 0.75f}, kNoNode, 0, 0);
  rec.space(NodeSpace::cells(4, 4));
  NodeDesc past{16, 7.25f, 1.5f, 0.5f};  // just past the space
  rec.open(past, 5, 1, 0);
  rec.open(NodeDesc{6, 2.5f, 1.5f}, 5, 1, 0);  // in it
  rec.frame();
  const Trace t = rec.take();
  TraceCursor c(t);
  c.seek(c.last_frame());
  const FrameState& s = c.state();
  for (const std::uint32_t id : {5u, 16u}) {
    const NodeState* n = s.node_by_id(id);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(t.space_of(n->desc), nullptr) << id;
    EXPECT_FALSE(t.cell_of(n->desc)) << id;
  }
  EXPECT_EQ(t.position_of(s.node_by_id(16)->desc), (Vec2{7.25, 1.5}));
  EXPECT_FLOAT_EQ(float(t.heading_of(s.node_by_id(16)->desc)), 0.5f);
  EXPECT_EQ(t.label_of(s.node_by_id(16)->desc), "point (7.25, 1.50)");
  EXPECT_EQ(t.cell_of(s.node_by_id(6)->desc), (CellXY{2, 1}));
  // Cell (1, 1) is id 5 in the space's numbering, but node 5 was never declared in it.
  EXPECT_TRUE(s.nodes_at(1, 1).empty());
  EXPECT_EQ(s.nodes_at(2, 1).size(), 1u);

  // Drawn: node 6 as a cell, the two free nodes as dots, the one with a heading with a tick.
  DrawList list;
  SearchDrawOptions o;
  o.grid_width = o.grid_height = 4;
  o.current = false;
  draw_search_state(list, s, Style::standard(), o);
  const DrawBatch& b = list.batch(Layer::Search);
  ASSERT_EQ(b.rects.size(), 1u);
  EXPECT_EQ(b.rects[0].x0, 2.f);
  ASSERT_EQ(b.points.size(), 2u);
  ASSERT_EQ(b.lines.size(), 1u);
  EXPECT_EQ(b.lines[0].x0, 7.25f);
  // Images hold cells only.
  const Image g = g_image(s, 4, 4);
  std::size_t coloured = 0;
  for (std::size_t i = 0; i < g.pixels.size(); i += 4) coloured += g.pixels[i + 3] != 0;
  EXPECT_EQ(coloured, 1u);
  EXPECT_NE(g.at(2, 1).a, 0);
}

TEST(NodeSpaces, RedeclaringARangeReplacesIt) {
  TraceRecorder rec;
  rec.space(NodeSpace::points(10, 100, "first"));
  rec.space(NodeSpace::cells(4, 4));
  rec.space(NodeSpace::points(10, 100, "second"));
  rec.space(NodeSpace::cells(4, 4));
  rec.open(NodeDesc{105, 1, 1}, kNoNode, 0, 0);
  rec.frame();
  const Trace t = rec.take();
  ASSERT_EQ(t.spaces().size(), 2u);
  EXPECT_EQ(t.spaces()[0].name, "second");
  TraceCursor c(t);
  c.seek(1);
  EXPECT_EQ(t.label_of(c.state().node_by_id(105)->desc), "second 5");
}

TEST(NodeSpaces, LabelsAreInternedOnce) {
  const test::FakeGraph f = test::layer_graph(10);
  TraceRecorder rec;
  f.search(rec);
  f.search(rec);  // the same labels again
  const Trace t = rec.take();
  EXPECT_EQ(t.labels().size(), 4u);  // entrance 0, 1, 3, 4
  for (const std::string& l : t.labels()) EXPECT_EQ(l.rfind("entrance ", 0), 0u) << l;
}

TEST(NodeSpaces, PosthocWritesPositionsAndLabelsThroughTheSpace) {
  TraceRecorder rec;
  rec.space(NodeSpace::cells(4, 4));
  rec.close(6);  // never opened: a Cells node still has its cell centre
  rec.space(NodeSpace::points(0, 1000, "tangents"));
  NodeDesc p{1003, 2.25f, 3.5f};
  p.label = "tangent 3 cw";
  rec.open(p, kNoNode, 0, 1);
  rec.close(77);  // no space, no description: no position
  rec.frame();
  const auto j = nlohmann::json::parse(to_posthoc(rec.take()));
  const auto& ev = j["events"];
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0]["x"], 2.5);
  EXPECT_EQ(ev[0]["y"], 1.5);
  EXPECT_FALSE(ev[0].contains("label"));
  EXPECT_EQ(ev[1]["x"], 2.25);
  EXPECT_EQ(ev[1]["label"], "tangent 3 cw");
  EXPECT_FALSE(ev[2].contains("x"));
}

// ---- timeline -------------------------------------------------------------------------------

TEST(NodeSpaces, CellBreakpointsFireOnAnyHeadingOrOnTheChosenOne) {
  const Scene scene = wall_scene();
  const Trace t = record_headings(scene, query({1.5, 1.5, 0}, {8.5, 1.5, 0}));
  const NodeSpace& sp = only_space(t, NodeSpace::Kind::CellHeadings);
  const FirstFrames first = first_frames(t);
  const std::size_t last = t.frame_count() - 1;
  int cells_checked = 0, later_heading = 0;
  for (int y = 0; y < scene.map.height(); ++y)
    for (int x = 0; x < scene.map.width(); ++x)
      for (const bool on_open : {true, false}) {
        const auto& when = on_open ? first.opened : first.closed;
        // Any heading: the first frame one of the cell's headings is opened / expanded.
        std::optional<std::size_t> any;
        for (int i = 0; i < 8; ++i)
          if (auto it = when.find(sp.heading_id(x, y, i)); it != when.end())
            any = any ? std::min(*any, it->second) : it->second;
        const CellBreak cell{x, y, -1, on_open};
        EXPECT_EQ(find_break(t, 0, last, std::span(&cell, 1)), any) << x << "," << y;
        cells_checked += any.has_value();
        // One heading: exactly that node's frame, or never.
        for (int i = 0; i < 8; ++i) {
          const auto it = when.find(sp.heading_id(x, y, i));
          const std::optional<std::size_t> mine =
              it == when.end() ? std::nullopt : std::optional<std::size_t>(it->second);
          const CellBreak one{x, y, i, on_open};
          EXPECT_EQ(find_break(t, 0, last, std::span(&one, 1)), mine) << x << "," << y << " h" << i;
          later_heading += mine && any && *mine > *any && !on_open;
        }
      }
  EXPECT_GT(cells_checked, 20);
  EXPECT_GT(later_heading, 5) << "some headings of a cell are expanded after another one";
  // A wall cell never fires; a window ending before the frame does not fire.
  const CellBreak wall{4, 1, -1, true};
  EXPECT_FALSE(find_break(t, 0, last, std::span(&wall, 1)));
  const CellBreak start{1, 1, -1, false};
  const auto at = find_break(t, 0, last, std::span(&start, 1));
  ASSERT_TRUE(at);
  EXPECT_FALSE(find_break(t, *at, last, std::span(&start, 1)) == at);
  EXPECT_FALSE(find_break(t, 0, *at - 1, std::span(&start, 1)));
  // The ids a cell breakpoint stands for come from the space: the cell's 8 headings.
  EXPECT_EQ(node_breaks(t, std::span(&start, 1)).size(), 8u);
  const CellBreak outside{20, 1, -1, false};
  EXPECT_TRUE(node_breaks(t, std::span(&outside, 1)).empty());
}

TEST(NodeSpaces, CellBreakpointsOnCellsCornersAndPoints) {
  // Cells: one node a cell. Corners and points stand on no cell: a cell breakpoint never fires.
  for (const test::FakeGraph& f :
       {test::cells_graph(6, 4), test::corners_graph(6, 4), test::points_graph(0)}) {
    const Trace t = record(f);
    const FirstFrames first = first_frames(t);
    const CellBreak b{2, 1, -1, false};
    const auto k = find_break(t, 0, t.frame_count() - 1, std::span(&b, 1));
    if (f.space.kind == NodeSpace::Kind::Cells)
      EXPECT_EQ(k, first.closed.at(f.space.cell_id(2, 1)));
    else
      EXPECT_FALSE(k) << f.space.name;
  }
}

// ---- drawing --------------------------------------------------------------------------------

using CellSet = std::set<std::pair<int, int>>;

CellSet full_cells(const DrawBatch& b, Rgba c) {
  CellSet out;
  for (const RectPrim& r : b.rects)
    if (r.colour == c && r.x1 - r.x0 == 1.f && r.y1 - r.y0 == 1.f) out.insert({int(r.x0), int(r.y0)});
  return out;
}

TEST(NodeSpaces, CellsDrawAsCellsAndCornersAsDotsOnIntersections) {
  const Style& st = Style::standard();
  for (const test::FakeGraph& f : {test::cells_graph(6, 4), test::corners_graph(6, 4)}) {
    SCOPED_TRACE(f.space.name);
    const Trace t = record(f);
    TraceCursor c(t);
    c.seek(c.last_frame() / 2);
    const FrameState& s = c.state();
    DrawList list;
    SearchDrawOptions o;
    o.grid_width = 6;
    o.grid_height = 4;
    draw_search_state(list, s, st, o);
    const DrawBatch& b = list.batch(Layer::Search);
    std::set<std::pair<double, double>> open, closed;
    for (const NodeState& n : s.nodes()) {
      const Vec2 p = t.position_of(n.desc);
      if (n.status == NodeStatus::Open) open.insert({p.x, p.y});
      if (n.status == NodeStatus::Closed) closed.insert({p.x, p.y});
    }
    ASSERT_FALSE(open.empty());
    ASSERT_FALSE(closed.empty());
    std::set<std::pair<double, double>> got_open, got_closed;
    if (f.space.kind == NodeSpace::Kind::Cells) {
      for (const auto& [x, y] : full_cells(b, st.colour(Role::Open))) got_open.insert({x + 0.5, y + 0.5});
      for (const auto& [x, y] : full_cells(b, st.colour(Role::Closed))) got_closed.insert({x + 0.5, y + 0.5});
      EXPECT_TRUE(b.points.empty());
    } else {
      for (const PointPrim& p : b.points) {
        // Every dot sits on a grid intersection.
        EXPECT_EQ(p.x, std::floor(p.x));
        EXPECT_EQ(p.y, std::floor(p.y));
        if (p.colour == st.colour(Role::Open)) got_open.insert({p.x, p.y});
        if (p.colour == st.colour(Role::Closed)) got_closed.insert({p.x, p.y});
      }
      EXPECT_TRUE(b.rects.empty());
    }
    EXPECT_EQ(got_open, open);
    EXPECT_EQ(got_closed, closed);
    EXPECT_TRUE(b.triangles.empty());
    // With the cells in a texture (cell_fills off), cells draw nothing but the current node;
    // corners are still dots.
    DrawList textured;
    o.cell_fills = false;
    draw_search_state(textured, s, st, o);
    const DrawBatch& tb = textured.batch(Layer::Search);
    if (f.space.kind == NodeSpace::Kind::Cells) {
      ASSERT_EQ(tb.rects.size(), 1u);
      EXPECT_EQ(tb.rects[0].colour, st.colour(Role::Current));
    } else {
      EXPECT_EQ(tb.points.size(), b.points.size());
    }
    // The search texture holds the cells and nothing of the corners.
    bool any_open = false, any_closed = false;
    const Image img = search_image(s, 6, 4, st, true, true, &any_open, &any_closed);
    EXPECT_EQ(any_open && any_closed, f.space.kind == NodeSpace::Kind::Cells);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 6; ++x) {
        Rgba want{0, 0, 0, 0};
        if (open.count({x + 0.5, y + 0.5}) && f.space.kind == NodeSpace::Kind::Cells) want = st.colour(Role::Open);
        if (closed.count({x + 0.5, y + 0.5}) && f.space.kind == NodeSpace::Kind::Cells) want = st.colour(Role::Closed);
        EXPECT_EQ(img.at(x, y), want) << x << "," << y;
      }
  }
}

// The wedge a triangle draws: its cell and the direction from the cell centre to its centroid.
struct Wedge {
  CellXY cell;
  double angle = 0;
  Rgba colour;
};
std::vector<Wedge> wedges(const DrawBatch& b) {
  std::vector<Wedge> out;
  for (const TrianglePrim& t : b.triangles) {
    const Vec2 centroid{(t.x0 + t.x1 + t.x2) / 3.0, (t.y0 + t.y1 + t.y2) / 3.0};
    const CellXY cell{int(std::floor(centroid.x)), int(std::floor(centroid.y))};
    const Vec2 d = centroid - Vec2{cell.x + 0.5, cell.y + 0.5};
    out.push_back({cell, std::atan2(d.y, d.x), t.colour});
    // All three corners inside the cell.
    for (const auto& [x, y] : {std::pair{t.x0, t.y0}, std::pair{t.x1, t.y1}, std::pair{t.x2, t.y2}}) {
      EXPECT_GE(x, cell.x);
      EXPECT_LE(x, cell.x + 1);
      EXPECT_GE(y, cell.y);
      EXPECT_LE(y, cell.y + 1);
    }
  }
  return out;
}

TEST(NodeSpaces, HeadingsDrawAsWedgesInsideTheirCells) {
  const Scene scene = wall_scene();
  const Trace t = record_headings(scene, query({1.5, 1.5, kPi}, {8.5, 1.5, 0}));
  TraceCursor c(t);
  c.seek(c.last_frame() * 2 / 3);
  const FrameState& s = c.state();
  const Style& st = Style::standard();
  const int w = scene.map.width(), h = scene.map.height();
  DrawList list;
  SearchDrawOptions o;
  o.grid_width = w;
  o.grid_height = h;
  o.current = false;
  draw_search_state(list, s, st, o);
  const DrawBatch& b = list.batch(Layer::Search);

  // One wedge per open or closed node, in its cell, pointing along its heading, in its colour.
  std::multiset<std::tuple<int, int, long, std::uint32_t>> want, got;
  auto key = [](CellXY cell, double angle, Rgba colour) {
    const long octant = std::lround(std::remainder(angle, 2 * kPi) / (kPi / 4));
    return std::tuple{cell.x, cell.y, (octant + 8) % 8, colour.packed()};
  };
  CellSet open_cells, closed_cells;
  for (const NodeState& n : s.nodes()) {
    if (n.status == NodeStatus::Unseen) continue;
    const bool closed = n.status == NodeStatus::Closed;
    const CellXY cell = *t.cell_of(n.desc);
    want.insert(key(cell, t.heading_of(n.desc),
                    heading_wedge_colour(st.colour(closed ? Role::Closed : Role::Open))));
    (closed ? closed_cells : open_cells).insert({cell.x, cell.y});
  }
  for (const Wedge& wg : wedges(b)) {
    got.insert(key(wg.cell, wg.angle, wg.colour));
    // The centroid's direction is the heading itself, not only its octant.
    const double snapped = std::round(wg.angle / (kPi / 4)) * (kPi / 4);
    EXPECT_NEAR(angle_diff(wg.angle, snapped), 0, 1e-4);
  }
  ASSERT_GT(want.size(), 30u);
  EXPECT_EQ(got, want);
  // Under the wedges, one faint fill per cell: closed when any heading of it is.
  CellSet open_only;
  std::set_difference(open_cells.begin(), open_cells.end(), closed_cells.begin(), closed_cells.end(),
                      std::inserter(open_only, open_only.end()));
  EXPECT_EQ(full_cells(b, heading_cell_tint(st.colour(Role::Closed))), closed_cells);
  EXPECT_EQ(full_cells(b, heading_cell_tint(st.colour(Role::Open))), open_only);
  EXPECT_EQ(b.rects.size(), closed_cells.size() + open_only.size());
  // The texture holds the same fills.
  const Image img = search_image(s, w, h, st, true, true);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      Rgba want_px{0, 0, 0, 0};
      if (open_only.count({x, y})) want_px = heading_cell_tint(st.colour(Role::Open));
      if (closed_cells.count({x, y})) want_px = heading_cell_tint(st.colour(Role::Closed));
      EXPECT_EQ(img.at(x, y), want_px) << x << "," << y;
    }

  // Without fills (the app's texture shows them): wedges only. Zoomed out: fills only.
  DrawList no_fills;
  o.cell_fills = false;
  draw_search_state(no_fills, s, st, o);
  EXPECT_TRUE(no_fills.batch(Layer::Search).rects.empty());
  EXPECT_EQ(no_fills.batch(Layer::Search).triangles.size(), want.size());
  DrawList far;
  o.cell_fills = true;
  o.heading_wedges = false;
  draw_search_state(far, s, st, o);
  EXPECT_TRUE(far.batch(Layer::Search).triangles.empty());
  EXPECT_EQ(far.batch(Layer::Search).rects.size(), b.rects.size());

  // The current node: its wedge in the current colour, whole, and an outline of its cell; an
  // inset cell when wedges are off.
  const NodeState* cur = s.current();
  ASSERT_NE(cur, nullptr);
  const CellXY cc = *t.cell_of(cur->desc);
  SearchDrawOptions only_current;
  only_current.grid_width = w;
  only_current.grid_height = h;
  only_current.open = only_current.closed = false;
  DrawList cl;
  draw_search_state(cl, s, st, only_current);
  const auto cw = wedges(cl.batch(Layer::Search));
  ASSERT_EQ(cw.size(), 1u);
  EXPECT_EQ(cw[0].cell, cc);
  EXPECT_EQ(cw[0].colour, st.colour(Role::Current));
  EXPECT_NEAR(angle_diff(cw[0].angle, t.heading_of(cur->desc)), 0, 1e-4);
  EXPECT_EQ(cl.batch(Layer::Search).lines.size(), 4u);
  only_current.heading_wedges = false;
  DrawList cl2;
  draw_search_state(cl2, s, st, only_current);
  ASSERT_EQ(cl2.batch(Layer::Search).rects.size(), 1u);
  EXPECT_GT(cl2.batch(Layer::Search).rects[0].x0, float(cc.x));
  EXPECT_LT(cl2.batch(Layer::Search).rects[0].x1, float(cc.x + 1));

  // Parent arrows run between wedges: a turn on the spot still has an arrow.
  DrawList arrows;
  o.parent_arrows = true;
  o.heading_wedges = true;
  draw_search_state(arrows, s, st, o);
  std::size_t same_cell = 0;
  for (const ArrowPrim& a : arrows.batch(Layer::Search).arrows)
    same_cell += int(std::floor(a.x0)) == int(std::floor(a.x1)) &&
                 int(std::floor(a.y0)) == int(std::floor(a.y1)) &&
                 std::hypot(a.x1 - a.x0, a.y1 - a.y0) > 0.05f;
  EXPECT_GT(same_cell, 3u);
}

TEST(NodeSpaces, HeadingCellsShowTheirBestNodeInImagesAndNumbers) {
  const Scene scene = wall_scene();
  const Trace t = record_headings(scene, query({1.5, 4.5, 0}, {8.5, 1.5, 0}));
  TraceCursor c(t);
  c.seek(c.last_frame());
  const FrameState& s = c.state();
  const int w = scene.map.width(), h = scene.map.height();
  // g heat: the smallest g of the cell's headings.
  HeatRange range;
  const Image g = g_image(s, w, h, {}, &range);
  auto lowest_g = [&](int x, int y) {
    double low = INFINITY;
    for (const NodeState* n : s.nodes_at(x, y)) low = std::min(low, n->g);
    return low;
  };
  double top = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (std::isfinite(lowest_g(x, y))) top = std::max(top, lowest_g(x, y));
  EXPECT_EQ(range.hi, top);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double low = lowest_g(x, y);
      if (std::isfinite(low))
        EXPECT_EQ(g.at(x, y), ColourMap::ordered().at(low / top)) << x << "," << y;
      else
        EXPECT_EQ(g.at(x, y).a, 0) << x << "," << y;
    }

  // Numbers: the best node's g, h, f and heading; or a line per heading.
  const Style& st = Style::standard();
  const MapRect one{1, 4, 2, 5};  // the start cell, where several headings were expanded
  ASSERT_GT(s.nodes_at(1, 4).size(), 2u);
  DrawList best;
  EXPECT_EQ(draw_search_numbers(best, s, w, h, one, st), 1u);
  const DrawBatch& bb = best.batch(Layer::Search);
  ASSERT_EQ(bb.texts.size(), 3u);
  const NodeState* b = s.best_at(1, 4);
  char want[64];
  std::snprintf(want, sizeof want, "f %.1f %s", b->f(), heading_name(t.heading_of(b->desc)).c_str());
  EXPECT_EQ(bb.label(bb.texts[2]), want);
  DrawList every;
  SearchNumberOptions all;
  all.every_heading = true;
  EXPECT_EQ(draw_search_numbers(every, s, w, h, one, st, all), 1u);
  const DrawBatch& eb = every.batch(Layer::Search);
  ASSERT_EQ(eb.texts.size(), s.nodes_at(1, 4).size());
  std::set<std::string> names;
  for (const TextPrim& tp : eb.texts) {
    const std::string l(eb.label(tp));
    names.insert(l.substr(0, l.find(' ')));
    EXPECT_GE(tp.y, 4.f);
    EXPECT_LE(tp.y, 5.f);
  }
  EXPECT_EQ(names.size(), eb.texts.size()) << "one line per heading";
}

TEST(NodeSpaces, DifferenceCountsACellOnceWhicheverHeadingsClosedIt) {
  const Scene scene = wall_scene();
  const Query q = query({1.5, 4.5, 0}, {8.5, 1.5, 0});
  const Trace a = record_headings(scene, q, 8), b = record_headings(scene, q, 4);
  const int w = scene.map.width(), h = scene.map.height();
  TraceCursor ca(a), cb(b);
  for (const double frac : {0.3, 1.0}) {
    ca.seek(std::size_t(double(ca.last_frame()) * frac));
    cb.seek(std::size_t(double(cb.last_frame()) * frac));
    const ClosedDifference d = closed_difference(ca.state(), cb.state(), w, h);
    std::vector<std::uint32_t> only_a, only_b;
    std::size_t both = 0;
    auto closed = [](const FrameState& s, int x, int y) {
      for (const NodeState* n : s.nodes_at(x, y))
        if (n->status == NodeStatus::Closed) return true;
      return false;
    };
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const bool in_a = closed(ca.state(), x, y), in_b = closed(cb.state(), x, y);
        if (in_a && !in_b) only_a.push_back(std::uint32_t(y * w + x));
        if (in_b && !in_a) only_b.push_back(std::uint32_t(y * w + x));
        both += in_a && in_b;
      }
    EXPECT_EQ(d.only_a, only_a) << frac;
    EXPECT_EQ(d.only_b, only_b) << frac;
    EXPECT_EQ(d.both, both) << frac;
    if (frac == 1.0) {
      EXPECT_GT(both, 3u);
    }
  }
}

TEST(NodeSpaces, LayerAndPointNodesAreDotsAtTheirPositions) {
  // Both in one trace: an abstract layer (level 1) and free points (level 0).
  const test::FakeGraph layer = test::layer_graph(100), points = test::points_graph(1000);
  TraceRecorder rec;
  layer.search(rec);
  points.search(rec);
  const Trace t = rec.take();
  ASSERT_EQ(t.spaces().size(), 2u);
  TraceCursor c(t);
  c.seek(c.last_frame());
  const Style& st = Style::standard();
  auto dots = [&](std::optional<int> level) {
    DrawList list;
    SearchDrawOptions o;
    o.grid_width = 10;
    o.grid_height = 8;
    o.current = false;
    o.level = level;
    draw_search_state(list, c.state(), st, o);
    const DrawBatch& b = list.batch(Layer::Search);
    EXPECT_TRUE(b.rects.empty());
    EXPECT_TRUE(b.triangles.empty());
    std::set<std::pair<float, float>> at;
    for (const PointPrim& p : b.points) {
      EXPECT_EQ(p.colour, st.colour(Role::Closed));
      at.insert({p.x, p.y});
    }
    return std::pair{at, b.lines.size()};
  };
  auto positions = [](const test::FakeGraph& f) {
    std::set<std::pair<float, float>> at;
    for (const auto& n : f.nodes) at.insert({float(n.at.x), float(n.at.y)});
    return at;
  };
  const auto [all, all_ticks] = dots(std::nullopt);
  auto both = positions(layer);
  for (const auto& p : positions(points)) both.insert(p);
  EXPECT_EQ(all, both);
  EXPECT_EQ(all_ticks, points.nodes.size()) << "points carry headings: a tick each";
  const auto [abstract, abstract_ticks] = dots(1);
  EXPECT_EQ(abstract, positions(layer));
  EXPECT_EQ(abstract_ticks, 0u);
  const auto [base, base_ticks] = dots(0);
  EXPECT_EQ(base, positions(points));
  // Neither stands on a cell: images stay empty.
  const Image g = g_image(c.state(), 10, 8);
  for (std::size_t i = 3; i < g.pixels.size(); i += 4) EXPECT_EQ(g.pixels[i], 0);
}

TEST(NodeSpaces, BlockedCellsAreDrawnAsTheyWereReported) {
  Scene scene = wall_scene();
  scene.circles.push_back(Circle{7.0, 3.0, 1.2});
  const Trace t = record_headings(scene, query({1.5, 4.5, 0}, {8.5, 1.5, 0}));
  TraceCursor c(t);
  c.seek(c.last_frame());
  const Style& st = Style::standard();
  std::set<std::pair<int, int>> want;
  const std::vector<std::uint8_t> mask = circle_cell_mask(10, 6, scene.circles);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 10; ++x)
      if (mask[std::size_t(y * 10 + x)] && scene.map.passable(x, y, 1)) want.insert({x, y});
  ASSERT_GT(want.size(), 2u);
  DrawList list;
  SearchDrawOptions o;
  o.grid_width = 10;
  o.grid_height = 6;
  draw_search_state(list, c.state(), st, o);
  // Shaded cells on the terrain layer, one rectangle each, and nothing of them among the shapes.
  EXPECT_EQ(full_cells(list.batch(Layer::Terrain), blocked_cell_colour(st)), want);
  EXPECT_EQ(list.batch(Layer::Terrain).rects.size(), want.size());
  EXPECT_TRUE(list.batch(Layer::Shapes).empty());
  EXPECT_TRUE(list.batch(Layer::Terrain).used.test(StyleKey::of(Role::Obstacle).dense()));
  // Culled to the view.
  DrawList part;
  o.visible = MapRect{0, 0, 7, 6};
  draw_search_state(part, c.state(), st, o);
  std::size_t inside = 0;
  for (const auto& [x, y] : want) inside += x < 7;
  EXPECT_EQ(part.batch(Layer::Terrain).rects.size(), inside);
  // Hidden: not drawn, still in the legend.
  DrawList hidden;
  o.visible.reset();
  o.hidden_roles.set(std::size_t(Role::Obstacle));
  draw_search_state(hidden, c.state(), st, o);
  EXPECT_TRUE(hidden.batch(Layer::Terrain).rects.empty());
  EXPECT_TRUE(hidden.batch(Layer::Terrain).used.test(StyleKey::of(Role::Obstacle).dense()));
  // Before the planner said so (frame 0), nothing.
  c.seek(0);
  DrawList before;
  o.hidden_roles.reset();
  draw_search_state(before, c.state(), st, o);
  EXPECT_TRUE(before.batch(Layer::Terrain).empty());
}

TEST(NodeSpaces, HeadingNames) {
  EXPECT_EQ(heading_name(0), "E");
  EXPECT_EQ(heading_name(kPi / 2), "S");  // clockwise on screen: y grows downward
  EXPECT_EQ(heading_name(-kPi / 4), "NE");
  EXPECT_EQ(heading_name(7 * kPi / 4), "NE");
  EXPECT_EQ(heading_name(kPi / 8), "22.5 deg");
  EXPECT_EQ(heading_name(std::nan("")), "");
}

}  // namespace
}  // namespace pl
