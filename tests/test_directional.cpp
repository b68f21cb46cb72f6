// Directional A* (Pinter 2001; issue 11 item 4): every path it returns passes the independent
// `pathlab-cli validate` check on hundreds of seeded random maps with several footprints,
// turning radii, neighbourhoods and heading counts; Directional-24 solves a map built after the
// article's Figure 12 that Directional-8 cannot; the tables are rebuilt only when their key
// changes; what the hook sees (rejected curves with the blocked cells that rejected them).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "cli_util.hpp"
#include "pieces_json.hpp"
#include "core/curves.hpp"
#include "core/io.hpp"
#include "planners/directional.hpp"
#include "planners/planner.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

using pl::test::from_rows;

using nlohmann::json;
using pl::test::CliRun;
using pl::test::pieces_json;
using pl::test::run_cli;
using pl::test::temp_dir;
namespace fs = std::filesystem;

Scene scene_of(const GridMap& m) {
  Scene s;
  s.map = m;
  return s;
}

struct Config {
  std::string neighbours, headings, footprint;
  double size;  // disc radius, or square side
  double turning;
};

TEST(Directional, EveryPathPassesValidateOnRandomMaps) {
  const std::vector<Config> configs = {
      {"8", "8", "disc", 0.5, 1.0},   {"24", "8", "disc", 0.5, 1.5},  {"24", "8", "disc", 0.3, 2.5},
      {"48", "8", "disc", 0.8, 2.0},  {"24", "16", "disc", 0.45, 1.0}, {"8", "16", "disc", 0.35, 0.7},
      {"24", "8", "square", 1, 1.5},  {"48", "16", "square", 1, 3.0}, {"24", "8", "square", 2, 2.0},
      {"24", "8", "disc", 1.2, 1.5},  {"48", "8", "disc", 0.5, 4.0},  {"8", "8", "square", 1, 0.5},
      {"24", "8", "disc", 0.45, 1.5},  // reversing allowed (the last config)
  };
  const int kPerConfig = 30;  // 390 queries, each on its own seeded map
  std::mt19937 rng(20261123);
  int found = 0, validated = 0, reversing = 0;
  for (std::size_t ci = 0; ci < configs.size(); ++ci) {
    const Config& c = configs[ci];
    const int found_before = found;
    auto planner = Registry::builtin().create(
        "directional", {{"neighbours", c.neighbours}, {"headings", c.headings}, {"footprint", c.footprint},
                        {"goal_heading", ci % 3 == 2 ? "free" : "fixed"},
                        {"heuristic", ci % 4 == 3 ? "article" : "max"},
                        {"reverse", ci + 1 == configs.size() ? "yes" : "no"}});
    for (int i = 0; i < kPerConfig; ++i) {
      const int side = 24 + int(rng() % 17);
      GridMap m(side, side);
      std::uniform_real_distribution<double> u(0, 1);
      const double density = 0.02 + 0.06 * u(rng);
      for (int y = 0; y < side; ++y)
        for (int x = 0; x < side; ++x)
          if (u(rng) < density) m.set(x, y, m.palette().default_obstacle());
      // Endpoints on free cells; half the starts off the cell centre at any angle.
      const auto free_cell = [&] {
        for (;;) {
          const int x = int(rng() % unsigned(side)), y = int(rng() % unsigned(side));
          if (m.passable(x, y, m.palette().movingai_default_capability())) return CellXY{x, y};
        }
      };
      const CellXY s = free_cell(), g = free_cell();
      Query q;
      q.start = {s.x + 0.5, s.y + 0.5, kTwoPi * u(rng)};
      if (i % 2 == 0) q.start = {s.x + 0.2 + 0.6 * u(rng), s.y + 0.2 + 0.6 * u(rng), 7 * u(rng) - 1};
      q.goal = {g.x + 0.5, g.y + 0.5, kTwoPi * u(rng)};
      q.turning_radius = c.turning;
      if (c.footprint == "disc") q.radius = c.size;
      else q.size = int(c.size);
      const PlanResult r = planner->plan(scene_of(m), q);
      ASSERT_FALSE(r.bad_query) << r.message;
      if (!r.found) continue;
      ++found;
      // Starts at the start pose, ends on the goal cell's centre.
      if (r.pieces.empty()) {
        EXPECT_EQ(q.start.x, g.x + 0.5);
        EXPECT_EQ(q.start.y, g.y + 0.5);
      }
      if (!r.pieces.empty()) {
        const Pose p0 = pose_along(r.pieces, 0), p1 = pose_along(r.pieces, path_length(r.pieces));
        EXPECT_NEAR(p0.x, q.start.x, 1e-9);
        EXPECT_NEAR(p0.y, q.start.y, 1e-9);
        EXPECT_NEAR(p1.x, g.x + 0.5, 1e-9);
        EXPECT_NEAR(p1.y, g.y + 0.5, 1e-9);
        EXPECT_NEAR(path_length(r.pieces), r.length, 1e-9 * (1 + r.length));
      }
      const std::string map_file = (temp_dir("directional") / "m.map").string();
      const std::string path_file = (temp_dir("directional") / "p.json").string();
      save_map(m, map_file);
      std::ofstream(path_file) << json{{"pieces", pieces_json(r.pieces)}}.dump();
      char opts[160];
      std::snprintf(opts, sizeof opts, " %s %.17g --turning-radius %.17g",
                    c.footprint == "disc" ? "--radius" : "--size", c.size, c.turning);
      for (const PathPiece& p : r.pieces) reversing += p.reverse;
      const CliRun v = run_cli("validate " + map_file + " " + path_file + opts);
      EXPECT_EQ(v.code, 0) << "config " << ci << " query " << i << ": " << v.err;
      validated += v.code == 0;
    }
    std::printf("config %zu (D-%s, %s headings, %s %g, turning radius %g): %d of %d found\n", ci,
                c.neighbours.c_str(), c.headings.c_str(), c.footprint.c_str(), c.size, c.turning,
                found - found_before, kPerConfig);
  }
  // Not vacuous: most queries on these sparse maps have a path.
  EXPECT_GE(found, 150);
  EXPECT_EQ(validated, found);
  EXPECT_GT(reversing, 0);  // the reversing config backed up somewhere
}

// After the article's Figure 12: a ship with a wide turning radius must turn from a corridor
// into a side passage; the two-ring curve does it in one edge, while every one-ring chain of
// curves between adjacent cell centres pokes into the walls.
TEST(Directional, Figure12TwentyFourSolvesWhatEightCannot) {
  const GridMap m = from_rows({
      "@@@@@@@@@@@@",
      "@.........@@",
      "@.........@@",
      "@@@@@@@@...@",
      "@@@@@@@@@..@",
      "@@@@@@@@@..@",
      "@@@@@@@@@..@",
      "@@@@@@@@@@@@",
  });
  Query q;
  q.start = {1.5, 1.5, 0};
  q.goal = {9.5, 6.5, kPi / 2};
  q.radius = 0.4;
  q.turning_radius = 1.6;
  const Scene sc = scene_of(m);
  auto d8 = Registry::builtin().create("directional", {{"neighbours", "8"}});
  auto d24 = Registry::builtin().create("directional", {{"neighbours", "24"}});
  const PlanResult r8 = d8->plan(sc, q), r24 = d24->plan(sc, q);
  EXPECT_FALSE(r8.found) << "Directional-8 found a path of length " << r8.length;
  ASSERT_TRUE(r24.found) << r24.message;
  // Directional-24's path is legal.
  const std::string map_file = (temp_dir("directional") / "fig12.map").string();
  const std::string path_file = (temp_dir("directional") / "fig12.json").string();
  save_map(m, map_file);
  std::ofstream(path_file) << json{{"pieces", pieces_json(r24.pieces)}}.dump();
  const CliRun v = run_cli("validate " + map_file + " " + path_file + " --radius 0.4 --turning-radius 1.6");
  EXPECT_EQ(v.code, 0) << v.err;
}

TEST(Directional, TablesAreRebuiltOnlyWhenTheirKeyChanges) {
  DirectionalSearch s;
  GridMap m(16, 16);
  Query q;
  q.start = {2.5, 2.5, 0};
  q.goal = {12.5, 12.5, 0};
  q.turning_radius = 1.5;
  DirectionalSearch::Options o;
  EXPECT_TRUE(s.run(m, q, o, {}).found);
  q.goal = {10.5, 3.5, kPi};
  EXPECT_TRUE(s.run(m, q, o, {}).found);
  EXPECT_EQ(s.table_builds(), 1);
  q.turning_radius = 2;
  EXPECT_TRUE(s.run(m, q, o, {}).found);
  EXPECT_EQ(s.table_builds(), 2);
  q.radius = 0.3;
  EXPECT_TRUE(s.run(m, q, o, {}).found);
  EXPECT_EQ(s.table_builds(), 3);
  // 24 offsets x 8 x 8 headings; each entry's cells are what the footprint sweeps along it.
  std::size_t n = 0;
  for (int i = 0; i < 8; ++i)
    for (const auto& e : s.edges_from(i)) {
      ++n;
      const auto cells = s.cells_of(e);
      const std::vector<CellXY> again = swept_cells(e.curve.pieces(), Footprint::disc(0.3));
      ASSERT_EQ(std::vector<CellXY>(cells.begin(), cells.end()), again);
      EXPECT_NEAR(e.curve.length, dubins({0.5, 0.5, i * kTwoPi / 8}, {0.5 + e.dx, 0.5 + e.dy, e.to_heading * kTwoPi / 8}, 2).length, 1e-12);
    }
  EXPECT_EQ(n, 24u * 64u);
}

TEST(Directional, GoalHeadingFixedOrFreeAndBadQueries) {
  GridMap m(20, 20);
  Query q;
  q.start = {3.5, 10.5, 0};
  q.goal = {15.5, 10.5, kPi};  // arrive facing back west: a loop is needed
  q.turning_radius = 2;
  auto fixed = Registry::builtin().create("directional", {});
  auto free = Registry::builtin().create("directional", {{"goal_heading", "free"}});
  const PlanResult rf = fixed->plan(scene_of(m), q), rr = free->plan(scene_of(m), q);
  ASSERT_TRUE(rf.found);
  ASSERT_TRUE(rr.found);
  EXPECT_NEAR(std::cos(rf.points.back().heading - kPi), 1, 1e-9);
  EXPECT_NEAR(rr.length, 12, 1e-9);  // straight east
  EXPECT_GT(rf.length, rr.length + 2);
  q.turning_radius = 0;
  const PlanResult bad = fixed->plan(scene_of(m), q);
  EXPECT_FALSE(bad.found);
  EXPECT_TRUE(bad.bad_query);
  EXPECT_NE(bad.message.find("turning radius"), std::string::npos);
}

TEST(Directional, TurnPenaltyTurnsLess) {
  GridMap m(30, 30);
  Query q;
  q.start = {2.5, 2.5, 0};
  q.goal = {25.5, 20.5, kPi / 2};
  q.turning_radius = 1.5;
  auto plain = Registry::builtin().create("directional", {{"headings", "16"}});
  auto pen = Registry::builtin().create("directional", {{"headings", "16"}, {"turn_penalty", "4"}});
  const PlanResult a = plain->plan(scene_of(m), q), b = pen->plan(scene_of(m), q);
  ASSERT_TRUE(a.found);
  ASSERT_TRUE(b.found);
  const auto turned = [](const PlanResult& r) {
    double t = 0;
    for (const PathPiece& p : r.pieces)
      if (p.kind == PathPiece::Kind::Arc) t += std::abs(p.arc.sweep);
    return t;
  };
  EXPECT_LE(turned(b), turned(a) + 1e-9);
  EXPECT_GE(b.length, a.length - 1e-9);
}

// Swamp costs 10 here: the planner goes round a swamp band when the detour is cheap.
TEST(Directional, TerrainCostsAreHonoured) {
  std::vector<Terrain> t = Palette::movingai().terrains();
  for (Terrain& x : t)
    if (x.name == "swamp") x.cost = 10;
  GridMap m(30, 20, 0, Palette(t));
  const TerrainId swamp = *m.palette().find_name("swamp");
  for (int y = 0; y < 14; ++y)
    for (int x = 13; x < 17; ++x) m.set(x, y, swamp);
  Query q;
  q.start = {2.5, 5.5, 0};
  q.goal = {27.5, 5.5, 0};
  q.turning_radius = 1;
  auto p = Registry::builtin().create("directional", {});
  const PlanResult r = p->plan(scene_of(m), q);
  ASSERT_TRUE(r.found);
  for (const Pose& pt : r.points)
    EXPECT_FALSE(m.at(int(pt.x), int(pt.y)) == swamp) << pt.x << "," << pt.y;
}

// The hook: candidate curves as tests (arcs and segments), rejected ones with the blocked cells
// that rejected them as Rejected marks; nodes in the cells x headings space.
class Recorder : public SearchObserver {
 public:
  int ok = 0, bad = 0, arcs = 0;
  std::vector<CellXY> rejected;
  std::vector<NodeSpace> spaces;
  void space(const NodeSpace& s) override { spaces.push_back(s); }
  void test(const Shape& s, bool pass) override {
    (pass ? ok : bad) += 1;
    arcs += s.kind == Shape::Kind::Arc;
  }
  void mark(const Shape& s, Role role) override {
    if (role == Role::Rejected) rejected.push_back({int(s.a.x), int(s.a.y)});
  }
};

TEST(Directional, HookReportsCurvesAndTheCellsThatRejectedThem) {
  const GridMap m = from_rows({
      "............",
      "............",
      ".....@@.....",
      ".....@@.....",
      "............",
      "............",
  });
  Query q;
  q.start = {1.5, 2.5, 0};
  q.goal = {10.5, 3.5, 0};
  q.turning_radius = 1;
  auto p = Registry::builtin().create("directional", {});
  Recorder rec;
  RunContext ctx;
  ctx.observer = &rec;
  const PlanResult r = p->plan(scene_of(m), q, ctx);
  ASSERT_TRUE(r.found);
  EXPECT_GT(rec.ok, 0);
  EXPECT_GT(rec.bad, 0);
  EXPECT_GT(rec.arcs, 0);
  ASSERT_FALSE(rec.rejected.empty());
  for (CellXY c : rec.rejected)
    EXPECT_FALSE(m.passable(c.x, c.y, m.palette().movingai_default_capability())) << c.x << "," << c.y;
  ASSERT_FALSE(rec.spaces.empty());
  EXPECT_EQ(rec.spaces.back().kind, NodeSpace::Kind::CellHeadings);
  // Unwatched, the same answer.
  const PlanResult u = p->plan(scene_of(m), q);
  EXPECT_EQ(u.length, r.length);
  EXPECT_EQ(u.expanded, r.expanded);
}

// Issue 11 item 8: the hit-check mask of any (start heading, end heading, offset) on request,
// as its own phase before the search: the cells it marks are the ones the footprint swept along
// that curve covers (computed here from the curve, not the table), placed at the start cell,
// and those blocked on the map are marked as rejecting it.
class MaskRecorder : public SearchObserver {
 public:
  std::vector<std::string> phases;
  std::vector<CellXY> cells, blocked;
  std::vector<Shape> poses;
  int curve_pieces = 0;
  bool in_mask() const { return !phases.empty() && phases.back().rfind("hit-check mask", 0) == 0; }
  void phase(std::string_view n) override { phases.emplace_back(n); }
  void test(const Shape&, bool) override { curve_pieces += in_mask(); }
  void mark(const Shape& s, Role role) override {
    if (!in_mask()) return;
    if (role == Role::Candidate) cells.push_back({int(s.a.x), int(s.a.y)});
    if (role == Role::Rejected) blocked.push_back({int(s.a.x), int(s.a.y)});
    if (role == Role::Transition) poses.push_back(s);
  }
};

TEST(Directional, HitCheckMaskOnRequest) {
  const GridMap m = from_rows({
      "............",
      "............",
      "....@.......",
      "............",
      "............",
      "............",
  });
  const CapabilityMask cap = m.palette().movingai_default_capability();
  Query q;
  q.start = {2.5, 2.5, 0};
  q.goal = {10.5, 3.5, 0};
  q.turning_radius = 1.5;
  q.radius = 0.5;
  struct Case {
    int from, to, dx, dy;
  };
  for (const Case c : {Case{0, 1, 2, 1}, Case{0, 0, 2, 0}, Case{2, 6, -1, 1}, Case{7, 3, 0, -2}}) {
    auto p = Registry::builtin().create(
        "directional", {{"show_mask", "true"}, {"mask_from", std::to_string(c.from)},
                        {"mask_to", std::to_string(c.to)}, {"mask_dx", std::to_string(c.dx)},
                        {"mask_dy", std::to_string(c.dy)}});
    MaskRecorder rec;
    RunContext ctx;
    ctx.observer = &rec;
    p->plan(scene_of(m), q, ctx);
    // After the table build's phase (when the tables were built), before the search's.
    ASSERT_GE(rec.phases.size(), 2u);
    EXPECT_EQ(rec.phases[rec.phases.size() - 2].rfind("hit-check mask", 0), 0u) << rec.phases[rec.phases.size() - 2];
    EXPECT_EQ(rec.phases.back(), "search");
    const double step = kTwoPi / 8;
    const Curve curve = dubins({2.5, 2.5, c.from * step}, {2.5 + c.dx, 2.5 + c.dy, c.to * step}, 1.5);
    std::vector<CellXY> want = swept_cells(curve.pieces(), Footprint::disc(0.5));
    auto key = [](CellXY a, CellXY b) { return std::pair(a.y, a.x) < std::pair(b.y, b.x); };
    std::sort(want.begin(), want.end(), key);
    std::vector<CellXY> got = rec.cells;
    std::sort(got.begin(), got.end(), key);
    EXPECT_EQ(got, want) << c.from << "->" << c.to << " (" << c.dx << "," << c.dy << ")";
    std::vector<CellXY> want_blocked;
    for (CellXY w : want)
      if (!m.passable(w.x, w.y, cap)) want_blocked.push_back(w);
    std::sort(rec.blocked.begin(), rec.blocked.end(), key);
    EXPECT_EQ(rec.blocked, want_blocked);
    EXPECT_GT(rec.curve_pieces, 0);
    ASSERT_EQ(rec.poses.size(), 2u);
    EXPECT_NEAR(rec.poses[1].a.x, 2.5 + c.dx, 1e-9);
    EXPECT_NEAR(rec.poses[1].a.y, 2.5 + c.dy, 1e-9);
  }
  // Off by default: no mask phase.
  MaskRecorder rec;
  RunContext ctx;
  ctx.observer = &rec;
  Registry::builtin().create("directional", {})->plan(scene_of(m), q, ctx);
  for (const std::string& ph : rec.phases) EXPECT_NE(ph.rfind("hit-check mask", 0), 0u) << ph;
  // An offset beyond the neighbourhood's rings says so instead of showing a mask.
  MaskRecorder far;
  ctx.observer = &far;
  Registry::builtin()
      .create("directional", {{"show_mask", "true"}, {"neighbours", "8"}, {"mask_dx", "2"}})
      ->plan(scene_of(m), q, ctx);
  ASSERT_GE(far.phases.size(), 2u);
  EXPECT_NE(far.phases[far.phases.size() - 2].find("not a neighbour"), std::string::npos)
      << far.phases[far.phases.size() - 2];
  EXPECT_TRUE(far.cells.empty());
}

}  // namespace
}  // namespace pl

namespace pl {
namespace {

// Reversing as extra headings: facing the closed end of a two-cell corridor, the goal behind
// facing the same way is out of reach driving forwards; backing up reaches it, with the pieces
// driven backwards flagged, and validate (which reads the flags) accepts the path.
TEST(Directional, ReversingBacksOutOfADeadEnd) {
  const GridMap m = from_rows({
      "@@@@@@@@@@@@@@",
      "@............@",
      "@............@",
      "@@@@@@@@@@@@@@",
  });
  Query q;
  q.start = {10.5, 1.5, 0};
  q.goal = {2.5, 2.5, 0};
  q.radius = 0.45;
  q.turning_radius = 1.5;
  auto fwd = Registry::builtin().create("directional", {{"reverse", "no"}});
  auto agent = Registry::builtin().create("directional", {});
  EXPECT_FALSE(fwd->plan(scene_of(m), q).found);
  EXPECT_FALSE(agent->plan(scene_of(m), q).found);  // this agent cannot reverse
  q.can_reverse = true;
  const PlanResult r = agent->plan(scene_of(m), q);
  ASSERT_TRUE(r.found) << r.message;
  int reversed = 0;
  for (const PathPiece& p : r.pieces) reversed += p.reverse;
  EXPECT_GT(reversed, 0);
  const std::string map_file = (temp_dir("directional") / "dead.map").string();
  const std::string path_file = (temp_dir("directional") / "dead.json").string();
  save_map(m, map_file);
  std::ofstream(path_file) << json{{"pieces", pieces_json(r.pieces)}}.dump();
  const CliRun v = run_cli("validate " + map_file + " " + path_file + " --radius 0.45 --turning-radius 1.5");
  EXPECT_EQ(v.code, 0) << v.err;
  // The vehicle ends facing the goal heading.
  EXPECT_NEAR(std::cos(pose_along(r.pieces, path_length(r.pieces)).heading), 1, 1e-9);
}

}  // namespace
}  // namespace pl

namespace pl {
namespace {

// core/footprint's swept_cells against dense sampling: every cell the footprint overlaps by
// more than 1e-6 at a sampled point is in it, and every cell in it is overlapped within 2e-3 at
// some sample (the sampling step).
TEST(Directional, SweptCellsAgreeWithDenseSampling) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  for (int t = 0; t < 400; ++t) {
    const bool disc = t % 2 == 0;
    const double size = 0.2 + 1.5 * u(rng);
    const Footprint f = disc ? Footprint::disc(size) : Footprint::square(size);
    const double reach = disc ? size : size / 2;
    PathPiece p;
    if (t % 3 == 0) {
      p.kind = PathPiece::Kind::Line;
      p.line = {{10 * u(rng), 10 * u(rng)}, {10 * u(rng), 10 * u(rng)}};
    } else {
      p.kind = PathPiece::Kind::Arc;
      p.arc = {{10 * u(rng), 10 * u(rng)}, 0.3 + 3 * u(rng), kTwoPi * u(rng), (u(rng) - 0.5) * 2 * kPi};
    }
    const std::vector<CellXY> cells = swept_cells(std::span<const PathPiece>(&p, 1), f);
    // depth of the footprint at q into cell (x, y): > 0 overlaps.
    const auto depth = [&](Vec2 q, int x, int y) {
      const double dx = std::max({x - q.x, q.x - (x + 1.0), 0.0});
      const double dy = std::max({y - q.y, q.y - (y + 1.0), 0.0});
      return reach - (disc ? std::hypot(dx, dy) : std::max(dx, dy));
    };
    std::vector<double> best(cells.size(), -1e9);
    const int samples = 4000;
    for (int i = 0; i <= samples; ++i) {
      const double s = double(i) / samples;
      const Vec2 q = p.kind == PathPiece::Kind::Line ? p.line.a + (p.line.b - p.line.a) * s
                                                     : p.arc.point_at(p.arc.start_angle + p.arc.sweep * s);
      for (int y = int(std::floor(q.y - reach)) - 1; y <= int(std::floor(q.y + reach)) + 1; ++y)
        for (int x = int(std::floor(q.x - reach)) - 1; x <= int(std::floor(q.x + reach)) + 1; ++x) {
          const double d = depth(q, x, y);
          const auto it = std::find(cells.begin(), cells.end(), CellXY{x, y});
          if (d > 1e-6) {
            ASSERT_NE(it, cells.end()) << "piece " << t << " misses cell " << x << "," << y;
          }
          if (it != cells.end()) best[std::size_t(it - cells.begin())] = std::max(best[std::size_t(it - cells.begin())], d);
        }
    }
    for (std::size_t c = 0; c < cells.size(); ++c)
      EXPECT_GT(best[c], -2e-3) << "piece " << t << " lists cell " << cells[c].x << "," << cells[c].y;
  }
}

}  // namespace
}  // namespace pl
