// `pathlab-cli scen-gen`: random problems as a MovingAI scenario, the same file for the same
// seed, both ends in the largest region, optimal lengths and buckets, exit 2 on bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "cli_util.hpp"
#include "core/io.hpp"

namespace pl {
namespace {

namespace fs = std::filesystem;
using pl::test::CliRun;
using pl::test::run_cli;

// Two open rooms split by a wall: the left one (cells x < kLeft) is the larger region, so every
// problem must lie in it, and with no obstacle inside it the optimum is the octile distance.
constexpr int kW = 30, kH = 12, kLeft = 21;

fs::path two_rooms() {
  const fs::path file = pl::test::temp_dir("scengen") / "rooms.map";
  std::ofstream f(file);
  f << "type octile\nheight " << kH << "\nwidth " << kW << "\nmap\n";
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) f << (x == kLeft ? '@' : (x > kLeft && y % 3 == 0 ? 'S' : '.'));
    f << "\n";
  }
  return file;
}

TEST(ScenGen, SameSeedSameFileAndProblemsInTheLargestRegion) {
  const fs::path map = two_rooms();
  const CliRun a = run_cli("scen-gen '" + map.string() + "' --count 200 --seed 7");
  const CliRun b = run_cli("scen-gen '" + map.string() + "' --count 200 --seed 7");
  const CliRun c = run_cli("scen-gen '" + map.string() + "' --count 200 --seed 8");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);

  const Scenario s = parse_scen(a.out, "generated");
  ASSERT_EQ(s.problems.size(), 200u);
  int previous_bucket = 0;
  double longest = 0;
  for (const ScenProblem& p : s.problems) {
    EXPECT_EQ(p.map_path, "rooms.map");
    EXPECT_EQ(p.map_width, kW);
    EXPECT_EQ(p.map_height, kH);
    for (int x : {p.start_x, p.goal_x}) EXPECT_LT(x, kLeft);
    EXPECT_TRUE(p.start_x != p.goal_x || p.start_y != p.goal_y);
    const int dx = std::abs(p.goal_x - p.start_x), dy = std::abs(p.goal_y - p.start_y);
    const double octile = std::max(dx, dy) + (std::sqrt(2.0) - 1) * std::min(dx, dy);
    EXPECT_NEAR(p.optimal, octile, 1e-9);
    EXPECT_EQ(p.bucket, int(p.optimal / 4));
    EXPECT_GE(p.bucket, previous_bucket);  // ordered by bucket
    previous_bucket = p.bucket;
    longest = std::max(longest, p.optimal);
  }
  EXPECT_GT(longest, 16.0);  // more than one bucket is used

  // --out writes the same text, which `scen` then runs next to the map.
  const fs::path out = map.parent_path() / "rooms.map.scen";
  const CliRun w =
      run_cli("scen-gen '" + map.string() + "' --count 200 --seed 7 --out '" + out.string() + "'");
  ASSERT_EQ(w.code, 0) << w.err;
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, a.out);
  const CliRun run = run_cli("scen '" + out.string() + "' --planner annotated-astar");
  EXPECT_EQ(run.code, 0) << run.out << run.err;
}

TEST(ScenGen, BadInputExitsTwoWithOneLine) {
  const fs::path dir = pl::test::temp_dir("scengen");
  const fs::path walls = dir / "walls.map";
  {
    std::ofstream f(walls);
    f << "type octile\nheight 2\nwidth 3\nmap\n@@@\n@.@\n";  // one free cell: no problem
  }
  const fs::path broken = dir / "broken.map";
  {
    std::ofstream f(broken);
    f << "type octile\nheight 2\nwidth 3\nmap\n...\n..\n";  // a short row
  }
  const std::string good = two_rooms().string();
  const struct {
    std::string args, message_start;
  } cases[] = {
      {"'" + walls.string() + "' --count 3", walls.string() + ": "},
      {"'" + broken.string() + "' --count 3", broken.string() + ":6: "},
      {"'" + (dir / "absent.map").string() + "' --count 3", (dir / "absent.map").string() + ": "},
      {"'" + good + "' --count 0", ""},
      {"'" + good + "'", ""},
      {"'" + good + "' --count 3 --seed x", ""},
  };
  for (const auto& c : cases) {
    const CliRun r = run_cli("scen-gen " + c.args);
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
    if (!c.message_start.empty()) {
      EXPECT_NE(r.err.find(c.message_start), std::string::npos) << r.err;
    }
  }
}

}  // namespace
}  // namespace pl
