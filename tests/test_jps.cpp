// Jump point search (planners/jps.*): the optimal length of every problem of every scenario file
// in ../shared/data (the file's optimum, within its printed precision), the same lengths as A*
// on random maps, far fewer expansions, jumps reported through the hook, and watching changes
// nothing.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <random>
#include <map>
#include <string>

#include "core/io.hpp"
#include "core/scene.hpp"
#include "planners/planner.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

#ifdef PATHLAB_SANITIZED
constexpr std::size_t kEvery = 8;
#else
constexpr std::size_t kEvery = 1;
#endif

class JpsScenarioFiles : public ::testing::TestWithParam<std::string> {};

TEST_P(JpsScenarioFiles, ReproducesEveryOptimalLength) {
  const std::string file = GetParam();
  const Scenario scen = load_scen(file);
  Scene scene;
  scene.map = load_map(find_scen_map(scen, file));
  auto jps = Registry::builtin().create("jps");
  std::size_t checked = 0;
  double jps_expanded = 0;
  for (std::size_t i = 0; i < scen.problems.size(); i += kEvery) {
    const ScenProblem& p = scen.problems[i];
    Query q;
    q.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
    q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
    const PlanResult r = jps->plan(scene, q);
    ASSERT_TRUE(r.found) << file << " problem " << i;
    ASSERT_NEAR(r.length, p.optimal, scen.tolerance(i)) << file << " problem " << i;
    double sum = 0;
    for (const PathPiece& piece : r.pieces) sum += piece.length();
    ASSERT_NEAR(sum, r.length, 1e-6 * std::max(1.0, r.length));
    jps_expanded += double(r.expanded);
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

INSTANTIATE_TEST_SUITE_P(All, JpsScenarioFiles, ::testing::ValuesIn(test::all_scen_files()),
                         [](const auto& param_info) {
                           std::string n = std::filesystem::path(param_info.param).stem().stem().string();
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// One query by JPS and by A*: the same reachability and, where a path exists, the same length.
// The two results go to `a` and `j`.
void plan_both(Planner& jps, Planner& astar, const Scene& scene, const Query& q,
               const std::string& where, PlanResult& a, PlanResult& j) {
  a = astar.plan(scene, q);
  j = jps.plan(scene, q);
  ASSERT_EQ(j.found, a.found) << where;
  if (a.found) {
    ASSERT_NEAR(j.length, a.length, 1e-9) << where;
  }
}

TEST(Jps, SameLengthsAsAStarOnRandomMaps) {
  std::mt19937 rng(31);
  auto jps = Registry::builtin().create("jps");
  auto astar = Registry::builtin().create("astar");
  int found = 0, total = 0;
  double jps_exp = 0, astar_exp = 0;
  for (int map = 0; map < 300; ++map) {
    Scene scene;
    const int w = 2 + int(rng() % 40), h = 2 + int(rng() % 40);
    const double pct = double(rng() % 45) / 100.0;
    scene.map = test::random_map(rng, w, h, {0, 4}, {1.0 - pct, pct});
    for (int k = 0; k < 10; ++k) {
      Query q;
      q.start = {int(rng() % unsigned(w)) + 0.5, int(rng() % unsigned(h)) + 0.5, 0};
      q.goal = {int(rng() % unsigned(w)) + 0.5, int(rng() % unsigned(h)) + 0.5, 0};
      PlanResult a, j;
      ASSERT_NO_FATAL_FAILURE(plan_both(*jps, *astar, scene, q,
                                        "map " + std::to_string(map) + " query " + std::to_string(k), a, j));
      ++total;
      if (!a.found) continue;
      ++found;
      // Every piece is a straight or diagonal line through free cells, no corner cutting.
      for (const PathPiece& piece : j.pieces) {
        const int x0 = int(piece.line.a.x), y0 = int(piece.line.a.y);
        const int x1 = int(piece.line.b.x), y1 = int(piece.line.b.y);
        const int dx = (x1 > x0) - (x1 < x0), dy = (y1 > y0) - (y1 < y0);
        ASSERT_TRUE(dx == 0 || dy == 0 || std::abs(x1 - x0) == std::abs(y1 - y0));
        const CapabilityMask cap = scene.map.palette().movingai_default_capability();
        for (int x = x0, y = y0; x != x1 || y != y1; x += dx, y += dy) {
          ASSERT_TRUE(scene.map.passable(x + dx, y + dy, cap));
          if (dx && dy) {
            ASSERT_TRUE(scene.map.passable(x + dx, y, cap) && scene.map.passable(x, y + dy, cap));
          }
        }
      }
      jps_exp += double(j.expanded);
      astar_exp += double(a.expanded);
    }
  }
  EXPECT_GT(found, total / 2);
  EXPECT_LT(jps_exp, 0.5 * astar_exp);  // jumping is the point
}

// The straight jumps scan 64 cells a word (rows, and columns as bits): maps up to 200 cells a
// side put runs, forced sides, walls and endpoints on and across the word boundaries (padded
// positions 63/64 and 127/128 are cells 62/63 and 126/127), with endpoints often on one line
// so that the goal is met inside a scan. The same lengths and reachability as A*.
TEST(Jps, SameLengthsAsAStarAcrossBitWords) {
  std::mt19937 rng(77);
  auto jps = Registry::builtin().create("jps");
  auto astar = Registry::builtin().create("astar");
  const int kNear[] = {0, 1, 61, 62, 63, 64, 125, 126, 127, 128};
  int found = 0, total = 0;
  for (int map = 0; map < 40; ++map) {
    Scene scene;
    const int w = 60 + int(rng() % 141), h = 60 + int(rng() % 141);
    const double pct = double(rng() % 26) / 100.0;
    scene.map = test::random_map(rng, w, h, {0, 4}, {1.0 - pct, pct});
    const auto coord = [&](int n) {
      if (rng() % 2) return int(rng() % unsigned(n));
      const int c = kNear[rng() % std::size(kNear)];
      return c < n ? c : int(rng() % unsigned(n));
    };
    for (int k = 0; k < 25; ++k) {
      int sx = coord(w), sy = coord(h), gx = coord(w), gy = coord(h);
      if (k % 3 == 1) gy = sy;  // on one row
      if (k % 3 == 2) gx = sx;  // on one column
      Query q;
      q.start = {sx + 0.5, sy + 0.5, 0};
      q.goal = {gx + 0.5, gy + 0.5, 0};
      PlanResult a, j;
      ASSERT_NO_FATAL_FAILURE(plan_both(*jps, *astar, scene, q,
                                        "map " + std::to_string(map) + " query " + std::to_string(k), a, j));
      ++total;
      found += a.found ? 1 : 0;
    }
  }
  EXPECT_GT(found, total / 2);
}

class JumpWatcher : public SearchObserver {
 public:
  int segments = 0, cells_space = 0;
  std::map<Role, std::string> names;
  void space(const NodeSpace& s) override { cells_space += s.kind == NodeSpace::Kind::Cells; }
  void role_name(Role role, std::string_view name) override { names[role] = name; }
  void mark(const Shape& s, Role role) override {
    segments += s.kind == Shape::Kind::Segment && role == Role::Candidate;
  }
};

TEST(Jps, ReportsJumpsAndWatchingChangesNothing) {
  const std::string file = test::shared_data("dao/den312d.map.scen");
  const Scenario scen = load_scen(file);
  Scene scene;
  scene.map = load_map(find_scen_map(scen, file));
  auto jps = Registry::builtin().create("jps");
  const ScenProblem& p = scen.problems.back();
  Query q;
  q.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
  q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
  JumpWatcher w;
  RunContext ctx;
  ctx.observer = &w;
  const PlanResult watched = jps->plan(scene, q, ctx), plain = jps->plan(scene, q);
  ASSERT_TRUE(plain.found);
  EXPECT_EQ(watched.length, plain.length);
  EXPECT_EQ(watched.expanded, plain.expanded);
  EXPECT_EQ(w.cells_space, 1);
  // The legend says what the segments and the marked cells are.
  EXPECT_EQ(w.names[Role::Candidate], "jump");
  EXPECT_EQ(w.names[Role::Highlight], "forced neighbour");
  double jumps = -1;
  for (auto& [k, v] : plain.stats) {
    if (k == "jumps") jumps = v;
  }
  EXPECT_EQ(double(w.segments), jumps);
  EXPECT_GT(w.segments, 10);
}

}  // namespace
}  // namespace pl
