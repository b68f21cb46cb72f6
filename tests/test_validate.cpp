// pathlab-cli validate: the independent path check for turning agents (issue 11, item 11).
// Hand-made paths that break each rule exit 1 naming the piece; bad files exit 2; on random
// segments its verdict agrees with core/footprint's walkable(), which computes the same
// question by a different method (row bands, not critical parameters).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "cli_util.hpp"
#include "core/footprint.hpp"
#include "core/io.hpp"

namespace pl {
namespace {

using pl::test::CliRun;
using pl::test::run_cli;
namespace fs = std::filesystem;
using nlohmann::json;

fs::path temp_dir() {
  const fs::path d = fs::temp_directory_path() / ("pathlab_validate_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string write_text(const std::string& name, const std::string& text) {
  const fs::path p = temp_dir() / name;
  std::ofstream(p) << text;
  return p.string();
}

// A 10 x 10 map, free but for cell (5, 5).
std::string one_block_map() {
  GridMap m(10, 10);
  m.set(5, 5, m.palette().default_obstacle());
  const std::string p = (temp_dir() / "one_block.map").string();
  save_map(m, p);
  return p;
}

json line(double ax, double ay, double bx, double by) { return {{"line", {ax, ay, bx, by}}}; }
json arc(double cx, double cy, double r, double start, double sweep) {
  return {{"arc", {{"center", {cx, cy}}, {"radius", r}, {"start", start}, {"sweep", sweep}}}};
}
std::string path_file(const json& pieces) {
  static int n = 0;
  return write_text("path" + std::to_string(n++) + ".json", json{{"pieces", pieces}}.dump());
}

TEST(Validate, ClearPathPasses) {
  const std::string map = one_block_map();
  // Along row 2, then a quarter turn of radius 2 (right, clockwise on screen) down to x = 8.5.
  const json pieces = {line(0.5, 2.5, 6.5, 2.5), arc(6.5, 4.5, 2, -kPi / 2, kPi / 2),
                       line(8.5, 4.5, 8.5, 8.5)};
  const CliRun r = run_cli("validate " + map + " " + path_file(pieces) +
                           " --radius 0.5 --turning-radius 2");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("ok: 3 pieces"), std::string::npos) << r.out;
}

TEST(Validate, FootprintOverlappingABlockedCellFailsNamingThePiece) {
  const std::string map = one_block_map();
  // Row 4's centre line: a disc of 0.5 grazes cell (5, 5) (allowed), a disc of 0.6 overlaps it.
  const json straight = {line(1.5, 4.5, 8.5, 4.5)};
  EXPECT_EQ(run_cli("validate " + map + " " + path_file(straight) + " --radius 0.5").code, 0);
  const CliRun r = run_cli("validate " + map + " " + path_file(straight) + " --radius 0.6");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("piece 0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(5,5)"), std::string::npos) << r.err;
  // A square of side 1 along row 4 grazes too; side 1.2 overlaps.
  EXPECT_EQ(run_cli("validate " + map + " " + path_file(straight) + " --size 1").code, 0);
  EXPECT_EQ(run_cli("validate " + map + " " + path_file(straight) + " --size 1.2").code, 1);
  // An arc passing through the block: second piece named.
  const json through = {line(2.5, 5.5, 3.5, 5.5), arc(3.5, 7.5, 2, -kPi / 2, kPi / 2)};
  const CliRun a = run_cli("validate " + map + " " + path_file(through) + " --radius 0.3");
  EXPECT_EQ(a.code, 1);
  EXPECT_NE(a.err.find("piece 1 (arc"), std::string::npos) << a.err;
  // Leaving the map is hitting a blocked cell.
  const CliRun out = run_cli("validate " + map + " " + path_file(json{line(0.3, 0.5, 3, 0.5)}) +
                             " --radius 0.4");
  EXPECT_EQ(out.code, 1);
  EXPECT_NE(out.err.find("outside the map"), std::string::npos) << out.err;
}

TEST(Validate, TightArcsKinksAndGapsFail) {
  const std::string map = one_block_map();
  const json tight = {line(0.5, 2.5, 2.5, 2.5), arc(2.5, 3.5, 1, -kPi / 2, kPi / 2)};
  const CliRun t = run_cli("validate " + map + " " + path_file(tight) + " --radius 0.2 --turning-radius 1.5");
  EXPECT_EQ(t.code, 1);
  EXPECT_NE(t.err.find("piece 1"), std::string::npos);
  EXPECT_NE(t.err.find("tighter than the turning radius"), std::string::npos) << t.err;
  EXPECT_EQ(run_cli("validate " + map + " " + path_file(tight) + " --radius 0.2 --turning-radius 1").code, 0);
  // Two lines meeting at a corner: an infinitely tight turn.
  const json kink = {line(0.5, 0.5, 2.5, 0.5), line(2.5, 0.5, 2.5, 3.5)};
  const CliRun k = run_cli("validate " + map + " " + path_file(kink) + " --radius 0.2 --turning-radius 0.1");
  EXPECT_EQ(k.code, 1);
  EXPECT_NE(k.err.find("kink"), std::string::npos) << k.err;
  const json gap = {line(0.5, 0.5, 2.5, 0.5), line(2.6, 0.5, 3.5, 0.5)};
  const CliRun g = run_cli("validate " + map + " " + path_file(gap) + " --radius 0.2");
  EXPECT_EQ(g.code, 1);
  EXPECT_NE(g.err.find("piece 1"), std::string::npos);
}

TEST(Validate, ReversedPiecesKeepTheHeading) {
  // Reeds-Shepp backing straight up: one reversed line, then forward pieces; the vehicle's
  // heading is continuous only when `reverse` is read.
  GridMap m(20, 20);
  const std::string map = (temp_dir() / "empty20.map").string();
  save_map(m, map);
  const CliRun c = run_cli("curve --from 10,10,0 --to 9,11,0 --radius 1 --reverse --json");
  ASSERT_EQ(c.code, 0) << c.err;
  const json cj = json::parse(c.out);
  bool any_reverse = false;
  for (const json& p : cj["pieces"]) any_reverse |= p["reverse"].get<bool>();
  ASSERT_TRUE(any_reverse);
  const std::string pf = write_text("rs.json", c.out);
  const CliRun r = run_cli("validate " + map + " " + pf + " --radius 0.4 --turning-radius 1");
  EXPECT_EQ(r.code, 0) << r.err;
  // Dropping the flags makes a gear change look like a kink.
  json stripped = cj;
  for (json& p : stripped["pieces"]) p.erase("reverse");
  const CliRun s = run_cli("validate " + map + " " + write_text("rs2.json", stripped.dump()) +
                           " --radius 0.4 --turning-radius 1");
  EXPECT_EQ(s.code, 1) << s.out;
}

TEST(Validate, BadInputExitsTwo) {
  const std::string map = one_block_map();
  const std::string good = path_file(json{line(0.5, 0.5, 2.5, 0.5)});
  EXPECT_EQ(run_cli("validate " + map + " " + good).code, 2);  // no footprint
  const CliRun nj = run_cli("validate " + map + " " + write_text("bad.json", "{\"pieces\": [") + " --radius 1");
  EXPECT_EQ(nj.code, 2);
  EXPECT_NE(nj.err.find("bad.json"), std::string::npos) << nj.err;
  const CliRun np = run_cli("validate " + map + " " + write_text("np.json", "{\"path\": []}") + " --radius 1");
  EXPECT_EQ(np.code, 2);
  const CliRun nan = run_cli("validate " + map + " " +
                             write_text("nan.json", R"({"pieces": [{"line": [0, 1, "x", 2]}]})") +
                             " --radius 1");
  EXPECT_EQ(nan.code, 2);
  EXPECT_NE(nan.err.find("piece 0"), std::string::npos) << nan.err;
  const CliRun r0 = run_cli("validate " + map + " " +
                            write_text("r0.json", R"({"pieces": [{"arc": {"center": [1, 1], "radius": 0, "start": 0, "sweep": 1}}]})") +
                            " --radius 1");
  EXPECT_EQ(r0.code, 2);
  EXPECT_EQ(run_cli("validate /nonexistent.map " + good + " --radius 1").code, 2);
}

// On random single segments the verdict equals walkable()'s (a different method in core).
TEST(Validate, AgreesWithWalkableOnRandomSegments) {
  std::mt19937 rng(11);
  GridMap m(12, 12);
  std::uniform_real_distribution<double> u(0, 1);
  for (int y = 0; y < 12; ++y)
    for (int x = 0; x < 12; ++x)
      if (u(rng) < 0.15) m.set(x, y, m.palette().default_obstacle());
  const std::string map = (temp_dir() / "random12.map").string();
  save_map(m, map);
  const CapabilityMask cap = m.palette().movingai_default_capability();
  int agree = 0, blocked = 0;
  for (int i = 0; i < 60; ++i) {
    const Vec2 a{1 + 10 * u(rng), 1 + 10 * u(rng)}, b{1 + 10 * u(rng), 1 + 10 * u(rng)};
    const bool disc = i % 2 == 0;
    const double s = 0.2 + 0.8 * u(rng);
    const Footprint f = disc ? Footprint::disc(s) : Footprint::square(s);
    const bool expect = walkable(m, cap, a, b, f);
    char opt[64];
    std::snprintf(opt, sizeof opt, disc ? " --radius %.17g" : " --size %.17g", s);
    const CliRun r = run_cli("validate " + map + " " + path_file(json{line(a.x, a.y, b.x, b.y)}) + opt);
    ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
    EXPECT_EQ(r.code == 0, expect) << "segment " << a.x << "," << a.y << " - " << b.x << "," << b.y
                                   << (disc ? " disc " : " square ") << s << ": " << r.err;
    agree += (r.code == 0) == expect;
    blocked += !expect;
  }
  EXPECT_EQ(agree, 60);
  EXPECT_GT(blocked, 5);  // the sample exercises both answers
  EXPECT_LT(blocked, 55);
}

}  // namespace
}  // namespace pl
