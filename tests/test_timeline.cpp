// Breakpoints and phase jumps over recorded traces (viz/timeline.hpp): the frame a breakpoint
// names is the first at which the replayed state shows that node opened / expanded.
#include <gtest/gtest.h>

#include <vector>

#include "planners/planner.hpp"
#include "viz/timeline.hpp"
#include "viz/trace.hpp"

namespace pl {
namespace {

// Grid A*'s search, recorded. Grid planners declare the map's Cells space themselves
// (planners/grid_search); declaring it here as well keeps these tests about the timeline: the
// planner's declaration of the same range replaces this one.
Trace record_astar(const Scene& scene, Query q) {
  auto planner = Registry::builtin().create("astar");
  TraceRecorder rec;
  rec.space(NodeSpace::cells(scene.map.width(), scene.map.height()));
  RunContext ctx;
  ctx.observer = &rec;
  planner->plan(scene, q, ctx);
  return rec.take();
}

Scene open_scene(int w, int h) {
  Scene s;
  s.map = GridMap(w, h);
  for (int y = 2; y < h - 2; ++y) s.map.set(w / 2, y, 4);  // a wall to walk around
  return s;
}

TEST(Timeline, BreakpointFiresOnTheFrameTheNodeIsOpenedOrExpanded) {
  const Scene scene = open_scene(20, 12);
  Query q;
  q.start = {1.5, 6.5, 0};
  q.goal = {18.5, 6.5, 0};
  const Trace trace = record_astar(scene, q);
  ASSERT_GT(trace.frame_count(), 10u);
  TraceCursor cur(trace);
  int checked = 0;
  // Every cell the search touches: the break frame is exactly where the status changes.
  for (int y = 0; y < 12; ++y)
    for (int x = 0; x < 20; ++x) {
      for (bool on_open : {true, false}) {
        const CellBreak b{x, y, -1, on_open};
        const auto k = find_break(trace, 0, trace.frame_count() - 1, std::span(&b, 1));
        // Replay: the first frame where the cell's node is open (or closed).
        std::optional<std::size_t> expect;
        for (std::size_t f = 1; f < trace.frame_count() && !expect; ++f) {
          cur.seek(f - 1);
          const NodeState* before = cur.state().best_at(x, y);
          const bool was = before && (on_open ? before->status != NodeStatus::Unseen
                                              : before->status == NodeStatus::Closed);
          cur.seek(f);
          const NodeState* n = cur.state().best_at(x, y);
          const bool is = n && (on_open ? n->status != NodeStatus::Unseen : n->status == NodeStatus::Closed);
          if (is && !was) expect = f;
        }
        EXPECT_EQ(k, expect) << "cell " << x << "," << y << (on_open ? " open" : " close");
        if (expect) ++checked;
      }
    }
  EXPECT_GT(checked, 20);
  // The wall is never opened.
  const CellBreak wall{10, 6, -1, true};
  EXPECT_FALSE(find_break(trace, 0, trace.frame_count() - 1, std::span(&wall, 1)));
  // A search window that ends before the frame does not fire.
  const CellBreak goal{18, 6, -1, false};
  const auto at = find_break(trace, 0, trace.frame_count() - 1, std::span(&goal, 1));
  ASSERT_TRUE(at);
  EXPECT_FALSE(find_break(trace, 0, *at - 1, std::span(&goal, 1)));
  EXPECT_FALSE(find_break(trace, *at, trace.frame_count() - 1, std::span(&goal, 1)));
}

TEST(Timeline, BreakHitNamesTheBreakpointAndTheNode) {
  const Scene scene = open_scene(20, 12);
  Query q;
  q.start = {1.5, 6.5, 0};
  q.goal = {18.5, 6.5, 0};
  const Trace trace = record_astar(scene, q);
  // Two breakpoints: the one that fires first is reported, with the node on its cell.
  const std::vector<CellBreak> breaks{{15, 1, -1, false}, {3, 6, -1, false}};
  const auto hit = find_break_hit(trace, 0, trace.frame_count() - 1, breaks);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->frame, *find_break(trace, 0, trace.frame_count() - 1, std::span(breaks)));
  const CellBreak first = hit->breakpoint;
  const auto other = find_break(trace, 0, trace.frame_count() - 1,
                                std::span(first == breaks[0] ? &breaks[1] : &breaks[0], 1));
  if (other) {
    EXPECT_LE(hit->frame, *other);
  }
  TraceCursor cur(trace);
  cur.seek(hit->frame);
  const NodeState* n = cur.state().node(hit->node);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->status, NodeStatus::Closed);
  EXPECT_EQ(trace.cell_of(n->desc), (CellXY{first.x, first.y}));
  // None fires after the last frame.
  EXPECT_FALSE(find_break_hit(trace, trace.frame_count() - 1, trace.frame_count() - 1, breaks));
}

TEST(Timeline, PhaseJumps) {
  TraceRecorder rec;
  rec.phase("one");
  rec.frame();
  rec.frame();
  rec.phase("two");
  rec.frame();
  rec.phase("three");
  rec.frame();
  rec.frame();
  const Trace t = rec.take();
  ASSERT_EQ(t.phases().size(), 3u);
  const std::size_t p1 = t.phases()[0].first_frame, p2 = t.phases()[1].first_frame,
                    p3 = t.phases()[2].first_frame;
  ASSERT_LT(p1, p2);
  ASSERT_LT(p2, p3);
  EXPECT_EQ(next_phase_frame(t, p1), p2);
  EXPECT_EQ(next_phase_frame(t, p2), p3);
  EXPECT_EQ(next_phase_frame(t, p3), std::nullopt);
  EXPECT_EQ(prev_phase_frame(t, p3), p2);
  EXPECT_EQ(prev_phase_frame(t, p3 + 1), p3);
  EXPECT_EQ(prev_phase_frame(t, p1), std::nullopt);
}

}  // namespace
}  // namespace pl
