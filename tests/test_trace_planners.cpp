// The property every planner must keep with the visualization hook (DESIGN.md sections 3, 7):
// watching a search does not change it, the replayed trace ends in the state the search ended
// in, and stepping forward then back to a frame gives the same state as jumping to it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "core/grid.hpp"
#include "core/scene.hpp"
#include "planners/planner.hpp"
#include "viz/trace.hpp"

namespace pl {
namespace {

constexpr TerrainId kGround = 0, kSwamp = 1, kTrees = 2, kBlocked = 4;  // Palette::movingai()

struct Problem {
  Scene scene;
  Query query;
  std::string what;
};

// Seeded random maps: mostly ground, some swamp (passable by default), trees (not passable by
// default) and hard obstacles; start and goal on ground cells, at cell centres.
std::vector<Problem> problems() {
  std::vector<Problem> out;
  struct Spec {
    int w, h;
    double blocked;
    int size;
    int count;
  };
  // Small and large (many keyframes), open and cluttered (unreachable goals), agent sizes 1, 2.
  const Spec specs[] = {{48, 32, 0.25, 1, 2}, {48, 32, 0.35, 1, 2},  {64, 48, 0.45, 1, 3},
                        {40, 40, 0.2, 2, 2},  {160, 120, 0.3, 1, 2}, {320, 240, 0.2, 1, 1}};
  std::uint32_t seed = 100;
  for (const Spec& sp : specs) {
    for (int rep = 0; rep < sp.count; ++rep) {
      std::mt19937 rng(seed++);
      std::uniform_real_distribution<double> u(0, 1);
      GridMap map(sp.w, sp.h, kGround, Palette::movingai());
      std::vector<TerrainId> cells(std::size_t(sp.w) * sp.h, kGround);
      for (auto& c : cells) {
        const double r = u(rng);
        c = r < sp.blocked          ? kBlocked
            : r < sp.blocked + 0.05 ? kSwamp
            : r < sp.blocked + 0.08 ? kTrees
                                    : kGround;
      }
      auto ground_cell = [&] {
        for (;;) {
          const int x = int(rng() % unsigned(sp.w)), y = int(rng() % unsigned(sp.h));
          if (cells[std::size_t(y) * sp.w + x] == kGround) return std::pair{x, y};
        }
      };
      const auto [sx, sy] = ground_cell();
      const auto [gx, gy] = ground_cell();
      map.assign(cells);
      Problem p;
      p.scene.map = std::move(map);
      p.query.start = Pose{sx + 0.5, sy + 0.5, 0};
      p.query.goal = Pose{gx + 0.5, gy + 0.5, 0};
      p.query.size = sp.size;
      p.what = std::to_string(sp.w) + "x" + std::to_string(sp.h) + " seed " +
               std::to_string(seed - 1) + " size " + std::to_string(sp.size) + " (" +
               std::to_string(sx) + "," + std::to_string(sy) + ")->(" + std::to_string(gx) + "," +
               std::to_string(gy) + ")";
      out.push_back(std::move(p));
    }
  }
  return out;
}

void expect_same_piece(const PathPiece& a, const PathPiece& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.line.a, b.line.a);
  EXPECT_EQ(a.line.b, b.line.b);
  EXPECT_EQ(a.arc.center, b.arc.center);
  EXPECT_EQ(a.arc.radius, b.arc.radius);
  EXPECT_EQ(a.arc.start_angle, b.arc.start_angle);
  EXPECT_EQ(a.arc.sweep, b.arc.sweep);
}

TEST(TracePlanners, ReplayEndsWhereTheSearchEnded) {
  const auto& registry = Registry::builtin();
  ASSERT_FALSE(registry.all().empty());
  const auto probs = problems();
  for (const PlannerInfo& info : registry.all()) {
    // Grid planners name nodes by cell index y * width + x (DESIGN.md section 3).
    const bool grid = info.family.rfind("grid search", 0) == 0 || info.name == "annotated-astar";
    for (const Problem& p : probs) {
      SCOPED_TRACE(info.name + " on " + p.what);
      auto planner = registry.create(info.name);
      const PlanResult plain = planner->plan(p.scene, p.query);
      TraceRecorder rec;
      RunContext ctx;
      ctx.observer = &rec;
      const PlanResult watched = planner->plan(p.scene, p.query, ctx);

      // Watching changes nothing.
      EXPECT_EQ(watched.found, plain.found);
      EXPECT_EQ(watched.length, plain.length);
      EXPECT_EQ(watched.expanded, plain.expanded);
      EXPECT_EQ(watched.generated, plain.generated);
      EXPECT_EQ(watched.points, plain.points);
      EXPECT_EQ(watched.pieces.size(), plain.pieces.size());

      // (A planner may report nothing at all, e.g. when the start is blocked.)
      const Trace trace = rec.take();
      TraceCursor end(trace);
      end.seek(trace.frame_count() - 1);
      const FrameState& s = end.state();
      EXPECT_EQ(s.counters().expanded, plain.expanded);
      if (auto named = s.counter("expanded")) {
        EXPECT_EQ(*named, double(plain.expanded));
      }

      // The latest path is the result's.
      const auto path = s.path();
      ASSERT_EQ(path.size(), plain.pieces.size());
      double len = 0;
      for (std::size_t i = 0; i < path.size(); ++i) {
        expect_same_piece(path[i], plain.pieces[i]);
        len += path[i].length();
      }
      if (plain.found) {
        EXPECT_NEAR(len, plain.length, 1e-9 * std::max(1.0, plain.length));
        ASSERT_FALSE(path.empty());
        if (path.front().kind == PathPiece::Kind::Line && !plain.points.empty()) {
          EXPECT_EQ(path.front().line.a, plain.points.front().position());
          EXPECT_EQ(path.back().line.b, plain.points.back().position());
        }
      }

      if (grid && plain.found) {
        const int w = p.scene.map.width();
        const auto goal_id = std::uint32_t(int(p.query.goal.y) * w + int(p.query.goal.x));
        const NodeState* goal = s.node_by_id(goal_id);
        ASSERT_NE(goal, nullptr);
        EXPECT_NEAR(goal->g, plain.length, 1e-9 * std::max(1.0, plain.length));
        // Placed by the declared Cells space (grid planners report cells by id alone).
        const Vec2 at = trace.position_of(goal->desc);
        EXPECT_EQ(at.x, p.query.goal.x);
        EXPECT_EQ(at.y, p.query.goal.y);
        // Following parents from the goal reaches the start.
        const NodeState* n = goal;
        std::size_t hops = 0;
        while (n->parent != kNoNode && hops <= trace.node_count()) {
          n = s.parent_of(*n);
          ++hops;
        }
        EXPECT_EQ(n->desc.id, std::uint32_t(int(p.query.start.y) * w + int(p.query.start.x)));
      }

      // Forward then back to k equals a jump to k.
      std::mt19937 rng(7);
      const std::size_t last = trace.frame_count() - 1;
      std::vector<std::size_t> ks = {0, std::min<std::size_t>(1, last), last / 2, last};
      for (int i = 0; i < 6; ++i) ks.push_back(rng() % (last + 1));
      for (std::size_t k : ks) {
        TraceCursor walk(trace), jump(trace);
        walk.seek(k);
        const std::size_t ahead = 1 + rng() % 40;
        for (std::size_t i = 0; i < ahead && walk.step_forward(); ++i) {
        }
        while (walk.frame() > k) ASSERT_TRUE(walk.step_back());
        jump.seek(k);
        ASSERT_TRUE(walk.state() == jump.state()) << "frame " << k;
        // And stepping forward from 0 reaches the same state as well.
        if (k < 300) {
          TraceCursor step(trace);
          while (step.frame() < k) ASSERT_TRUE(step.step_forward());
          ASSERT_TRUE(step.state() == jump.state()) << "frame " << k;
        }
      }
      // Walking back from the end visits the same states as jumping.
      TraceCursor back(trace), jump(trace);
      back.seek(last);
      while (back.step_back()) {
        if (back.frame() % 97 != 0) continue;
        jump.seek(back.frame());
        ASSERT_TRUE(back.state() == jump.state()) << "frame " << back.frame();
      }
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
}  // namespace pl
