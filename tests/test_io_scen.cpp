// MovingAI .scen files: both dialects, the benchmark files, and malformed input.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"
#include "io_test_util.hpp"

namespace fs = std::filesystem;
using pl::InputError;
using pl::Scenario;
using pl::ScenProblem;
using pl::iotest::error_of;
using pl::iotest::shared_files;
using pl::iotest::TempDir;

namespace {

Scenario random_scenario(std::mt19937& rng, Scenario::Dialect d, int n) {
  Scenario s;
  s.dialect = d;
  std::uniform_int_distribution<int> side(1, 600);
  std::uniform_real_distribution<double> len(0, 2000);
  for (int i = 0; i < n; ++i) {
    ScenProblem p;
    p.bucket = i / 10;
    p.map_path = d == Scenario::Dialect::V1Tabs && i % 3 == 0 ? "maps/my maps/a b.map" : "maps/x/m.map";
    p.map_width = side(rng);
    p.map_height = side(rng);
    p.start_x = static_cast<int>(rng() % static_cast<unsigned>(p.map_width));
    p.start_y = static_cast<int>(rng() % static_cast<unsigned>(p.map_height));
    p.goal_x = static_cast<int>(rng() % static_cast<unsigned>(p.map_width));
    p.goal_y = static_cast<int>(rng() % static_cast<unsigned>(p.map_height));
    // Full-precision doubles, 8-significant-digit values and integers.
    double v = len(rng);
    p.optimal = i % 3 == 0 ? v : i % 3 == 1 ? std::stod(std::to_string(v).substr(0, 9)) : std::floor(v);
    s.problems.push_back(p);
  }
  return s;
}

std::string rstrip_blank_lines(std::string s) {
  while (s.size() >= 2 && s[s.size() - 1] == '\n' && s[s.size() - 2] == '\n') s.pop_back();
  return s;
}

}  // namespace

TEST(IoScen, BothDialectsRoundTripExactly) {
  std::mt19937 rng(2024);
  for (auto d : {Scenario::Dialect::V1Tabs, Scenario::Dialect::V1_0Spaces}) {
    Scenario s = random_scenario(rng, d, 200);
    std::string text = pl::format_scen(s);
    EXPECT_EQ(text.rfind(d == Scenario::Dialect::V1Tabs ? "version 1\n" : "version 1.0\n", 0), 0u);
    Scenario back = pl::parse_scen(text, "r.scen");
    EXPECT_EQ(back.dialect, d);
    ASSERT_EQ(back.problems.size(), s.problems.size());
    for (size_t i = 0; i < s.problems.size(); ++i) EXPECT_EQ(back.problems[i], s.problems[i]) << i;
    EXPECT_EQ(pl::format_scen(back), text);
    ASSERT_EQ(back.lines.size(), s.problems.size());
    EXPECT_EQ(back.lines[5], 7);
  }
}

TEST(IoScen, OldDialectIsReadAndWrittenWithSpaces) {
  const std::string text =
      "version 1.0\n"
      "0 maps/dao/arena.map 49 49 1 11 1 12 1\n"
      "3   arena.map\t49 49  10 11 12 13   5.65685425\n";
  Scenario s = pl::parse_scen(text, "old.scen");
  EXPECT_EQ(s.dialect, Scenario::Dialect::V1_0Spaces);
  ASSERT_EQ(s.problems.size(), 2u);
  EXPECT_EQ(s.problems[1].bucket, 3);
  EXPECT_EQ(s.problems[1].map_path, "arena.map");
  EXPECT_EQ(s.problems[1].goal_y, 13);
  EXPECT_DOUBLE_EQ(s.problems[1].optimal, 5.65685425);
  EXPECT_EQ(pl::format_scen(s),
            "version 1.0\n"
            "0 maps/dao/arena.map 49 49 1 11 1 12 1\n"
            "3 arena.map 49 49 10 11 12 13 5.65685425\n");
}

TEST(IoScen, FilesWithoutAVersionLineReadAsTheOldDialect) {
  Scenario s = pl::parse_scen("\n0 m.map 10 10 1 2 3 4 2.5\n1 m.map 10 10 0 0 9 9 12.7279\n", "nov.scen");
  EXPECT_EQ(s.dialect, Scenario::Dialect::V1_0Spaces);
  ASSERT_EQ(s.problems.size(), 2u);
  EXPECT_EQ(s.lines[0], 2);
  EXPECT_EQ(s.problems[1].goal_x, 9);
}

TEST(IoScen, VersionOneKeepsSpacesInMapPathsAndToleratesCrlf) {
  Scenario s = pl::parse_scen("version 1\r\n0\tmaps/my maps/a b.map\t8\t8\t1\t2\t3\t4\t3.41421\r\n\r\n", "sp.scen");
  ASSERT_EQ(s.problems.size(), 1u);
  EXPECT_EQ(s.problems[0].map_path, "maps/my maps/a b.map");
  EXPECT_EQ(pl::format_scen(s), "version 1\n0\tmaps/my maps/a b.map\t8\t8\t1\t2\t3\t4\t3.41421\n");
  // The old dialect cannot hold that path: writing it must not produce a different file.
  s.dialect = Scenario::Dialect::V1_0Spaces;
  EXPECT_THROW(pl::format_scen(s), InputError);
}

TEST(IoScen, EveryBenchmarkScenarioLoadsMatchesItsMapAndWritesBackUnchanged) {
  auto scens = shared_files(".scen");
  if (scens.empty()) GTEST_SKIP() << "no shared data at " PATHLAB_SHARED_DIR;
  EXPECT_GE(scens.size(), 8u);
  for (const auto& p : scens) {
    const std::string path = p.string();
    const std::string text = pl::read_file(path);
    Scenario s = pl::load_scen(path);
    EXPECT_EQ(s.dialect, Scenario::Dialect::V1Tabs) << path;
    ASSERT_FALSE(s.problems.empty()) << path;
    size_t lines = 0;
    for (size_t i = 0; i + 1 < text.size(); ++i) lines += text[i] == '\n' && text[i + 1] != '\n';
    EXPECT_EQ(s.problems.size(), lines) << path;  // every line but the version line
    // Optimal lengths come back with their original digits.
    EXPECT_EQ(pl::format_scen(s), rstrip_blank_lines(text)) << path;
    Scenario again = pl::parse_scen(pl::format_scen(s), path);
    EXPECT_TRUE(again.problems == s.problems) << path;

    std::string map_path = pl::resolve_scen_map(path, s.problems[0]);
    EXPECT_EQ(fs::path(map_path).parent_path(), p.parent_path());
    pl::GridMap map = pl::load_map(map_path);
    EXPECT_NO_THROW(pl::check_scen_against_map(s, map, path)) << path;
  }
}

TEST(IoScen, BenchmarkScenarioConvertsToTheOldDialectAndBack) {
  auto scens = shared_files(".scen");
  if (scens.empty()) GTEST_SKIP();
  Scenario s = pl::load_scen(scens.front().string());
  s.dialect = Scenario::Dialect::V1_0Spaces;
  Scenario back = pl::parse_scen(pl::format_scen(s), "old.scen");
  EXPECT_EQ(back.dialect, Scenario::Dialect::V1_0Spaces);
  EXPECT_TRUE(back.problems == s.problems);
}

TEST(IoScen, SaveAndLoadThroughAFile) {
  TempDir dir("scen");
  std::mt19937 rng(3);
  Scenario s = random_scenario(rng, Scenario::Dialect::V1Tabs, 50);
  pl::save_scen(s, dir.file("a.scen"));
  Scenario back = pl::load_scen(dir.file("a.scen"));
  EXPECT_TRUE(back.problems == s.problems);
}

TEST(IoScen, ResolveMapUsesTheBasenameNextToTheScenario) {
  ScenProblem p;
  p.map_path = "maps/dao/arena.map";
  EXPECT_EQ(pl::resolve_scen_map("/data/dao/arena.map.scen", p), "/data/dao/arena.map");
  EXPECT_EQ(pl::resolve_scen_map("arena.map.scen", p), "arena.map");
  p.map_path = "C:\\maps\\x.map";
  EXPECT_EQ(pl::resolve_scen_map("d/x.scen", p), "d/x.map");
  p.map_path = "../../etc/";
  EXPECT_CONTAINS(error_of([&] { pl::resolve_scen_map("d/x.scen", p); }), "d/x.scen");
}

TEST(IoScen, CheckAgainstMapReportsTheLine) {
  pl::GridMap map(10, 8);
  Scenario s = pl::parse_scen(
      "version 1\n0\tm.map\t10\t8\t1\t1\t2\t2\t1.4\n\n0\tm.map\t12\t8\t1\t1\t2\t2\t1.4\n", "c.scen");
  std::string msg = error_of([&] { pl::check_scen_against_map(s, map, "c.scen"); });
  EXPECT_CONTAINS(msg, "c.scen:4:");
  EXPECT_CONTAINS(msg, "12x8");
  // Built in code: no lines, the problem's number instead.
  Scenario code;
  ScenProblem ok;
  ok.map_path = "m.map";
  ok.map_width = 10;
  ok.map_height = 8;
  code.problems = {ok, ok};
  code.problems[1].goal_x = 10;
  msg = error_of([&] { pl::check_scen_against_map(code, map, "code"); });
  EXPECT_CONTAINS(msg, "code: problem 2: goal (10,0)");
}

TEST(IoScen, MalformedInputIsRejectedWithFileAndLine) {
  const std::string v = "version 1\n";
  const std::string ok = "0\tm.map\t10\t10\t1\t2\t3\t4\t5\n";
  struct Bad {
    std::string text;
    std::vector<std::string> expect;
  };
  const std::vector<Bad> cases = {
      {"", {"bad.scen: ", "empty"}},
      {"\n \n", {"bad.scen: ", "empty"}},
      {"version 2\n" + ok, {"bad.scen:1:", "version '2'"}},
      {"version\n" + ok, {"bad.scen:1:", "version"}},
      {v + ok + "0\tm.map\t10\t10\t1\t2\t3\t4\n", {"bad.scen:3:", "8 columns"}},
      {v + ok + "0\tm.map\t10\t10\t1\t2\t3\t4\t5\t6\n", {"bad.scen:3:", "more than 9 columns"}},
      {v + "0\tm.map\t10\t10\tx\t2\t3\t4\t5\n", {"bad.scen:2:", "column 5", "'x'"}},
      {v + "0\tm.map\t10\t10\t1\t2\t3\t4\tabc\n", {"bad.scen:2:", "column 9"}},
      {v + "0\tm.map\t10\t10\t1\t2\t3\t4\tnan\n", {"bad.scen:2:", "column 9"}},
      {v + "0\tm.map\t10\t10\t1\t2\t3\t4\tinf\n", {"bad.scen:2:", "column 9"}},
      {v + "0\tm.map\t10\t10\t1\t2\t3\t4\t-1\n", {"bad.scen:2:", "column 9"}},
      {v + "0\tm.map\t10\t10\t1\t2\t3\t4\t1e999\n", {"bad.scen:2:", "column 9"}},
      {v + "0\tm.map\t10\t10\t1\t2\t3\t4\t0x10\n", {"bad.scen:2:", "column 9"}},
      {v + "0\tm.map\t10\t10\t-1\t2\t3\t4\t5\n", {"bad.scen:2:", "column 5"}},
      {v + "0\tm.map\t10\t10\t10\t2\t3\t4\t5\n", {"bad.scen:2:", "column 5", "0..9"}},
      {v + "0\tm.map\t10\t10\t1\t2\t3\t99999999999999999999\t5\n", {"bad.scen:2:", "column 8"}},
      {v + "0\tm.map\t1000000000\t10\t1\t2\t3\t4\t5\n", {"bad.scen:2:", "column 3"}},
      {v + "0\tm.map\t10\t0\t1\t2\t3\t4\t5\n", {"bad.scen:2:", "column 4"}},
      {v + "0\t\t10\t10\t1\t2\t3\t4\t5\n", {"bad.scen:2:", "empty map path"}},
      {v + "0\tm.map\t10\t10\t1\t2\t3\t+-4\t5\n", {"bad.scen:2:", "column 8"}},
      {v + ok + ok + "garbage\n", {"bad.scen:4:", "1 columns"}},
      {"version 1.0\n0 m.map 10 10 1 2 3\n", {"bad.scen:2:", "7 columns"}},
      {"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", {"bad.scen:1:"}},
  };
  for (const auto& c : cases) {
    std::string msg = error_of([&] { pl::parse_scen(c.text, "bad.scen"); });
    for (const auto& e : c.expect) EXPECT_CONTAINS(msg, e) << "input: " << c.text;
  }
}

TEST(IoScen, MutatedInputNeverEscapesAsAnotherError) {
  std::mt19937 rng(5);
  const std::string good = pl::format_scen(random_scenario(rng, Scenario::Dialect::V1Tabs, 8));
  for (size_t cut = 0; cut <= good.size(); ++cut) {
    try {
      pl::parse_scen(good.substr(0, cut), "cut.scen");
    } catch (const InputError&) {
    }
  }
  for (int i = 0; i < 3000; ++i) {
    std::string t = good;
    for (int k = 0; k < 1 + i % 4; ++k) t[rng() % t.size()] = static_cast<char>(rng() % 256);
    try {
      pl::parse_scen(t, "flip.scen");
    } catch (const InputError&) {
    }
  }
  for (int i = 0; i < 200; ++i) {
    std::string garbage(1 + rng() % 300, '\0');
    for (char& c : garbage) c = static_cast<char>(rng() % 256);
    EXPECT_THROW(pl::parse_scen(garbage, "garbage.scen"), InputError);
  }
}

TEST(IoScen, ToleranceFollowsThePrintedDigits) {
  const Scenario s = pl::parse_scen(
      "version 1\n"
      "0\tm.map\t8\t8\t0\t0\t7\t7\t244.95\n"
      "0\tm.map\t8\t8\t0\t0\t7\t7\t12\n"
      "0\tm.map\t8\t8\t0\t0\t7\t7\t9.8994949\n"
      "0\tm.map\t8\t8\t0\t0\t7\t7\t1.5e2\n",
      "t.scen");
  ASSERT_EQ(s.optimal_decimals, (std::vector<int>{2, 0, 7, -1}));
  EXPECT_DOUBLE_EQ(s.tolerance(0), 0.005);        // half a unit of the second decimal
  EXPECT_DOUBLE_EQ(s.tolerance(1), 0.5);          // an integer: half a unit
  EXPECT_DOUBLE_EQ(s.tolerance(2), 1e-5 * 9.8994949);  // many digits: 1e-5 relative
  EXPECT_DOUBLE_EQ(s.tolerance(3), 1e-5 * 150);   // exponent: relative only
  EXPECT_NE(s.tolerance_rule().find("0 to 7 decimals"), std::string::npos) << s.tolerance_rule();
  Scenario built;  // built in code: no printed digits, relative tolerance
  built.problems.push_back(s.problems[0]);
  EXPECT_DOUBLE_EQ(built.tolerance(0), 1e-5 * 244.95);
}
