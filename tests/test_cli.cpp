// Runs the real pathlab-cli binary: the CLI contract (DESIGN.md section 6), exit codes and the
// benchmark scenario check over every scenario file in ../shared/data.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "io_test_util.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

using pl::test::CliRun;
using pl::test::run_cli;

std::string temp_file(const std::string& name, const std::string& content) {
  const auto path = std::filesystem::temp_directory_path() / ("pathlab_test_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

// Sanitizer builds run several times slower: they check a sample that spans every bucket of
// every file; the Release build checks every problem.
#ifdef PATHLAB_SANITIZED
constexpr int kAStarEvery = 8, kAnnotatedEvery = 16;
#else
constexpr int kAStarEvery = 1, kAnnotatedEvery = 4;
#endif

// Every problem of every scenario file, 8-connected A*: 0 mismatches against the file's optima.
class ScenarioFiles : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioFiles, AStarReproducesEveryOptimalLength) {
  const std::string scen = GetParam();
  CliRun r = run_cli("scen '" + scen + "' --planner astar --json --every " + std::to_string(kAStarEvery));
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  const auto& s = j["summary"];
  EXPECT_GT(s["problems"].get<int>(), 100 / kAStarEvery);
  EXPECT_EQ(s["solved"], s["problems"]);
  EXPECT_EQ(s["mismatches"].get<int>(), 0);
  EXPECT_NEAR(s["mean_ratio"].get<double>(), 1.0, 1e-6);
  ASSERT_EQ(j["results"].size(), s["problems"].get<size_t>());
  for (auto& res : j["results"]) {
    ASSERT_TRUE(res["found"].get<bool>());
    ASSERT_NEAR(res["length"].get<double>(), res["optimal"].get<double>(),
                1e-5 * std::max(1.0, res["optimal"].get<double>()));
  }
}

TEST_P(ScenarioFiles, AnnotatedAStarSize1GroundSwampGivesTheSameLengths) {
  CliRun r = run_cli("scen '" + GetParam() + "' --planner annotated-astar --size 1 --capability ground,swamp --json --every " +
                     std::to_string(kAnnotatedEvery));
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["mismatches"].get<int>(), 0);
  EXPECT_EQ(j["summary"]["solved"], j["summary"]["problems"]);
}

INSTANTIATE_TEST_SUITE_P(SharedData, ScenarioFiles, ::testing::ValuesIn(test::all_scen_files()),
                         [](const auto& param_info) {
                           std::string n = std::filesystem::path(param_info.param).stem().stem().string();
                           for (auto& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(Cli, ScenFilesCoverEveryBenchmarkFamily) {
  const auto files = test::all_scen_files();
  for (const char* family : {"/dao/", "/room/", "/maze/", "/random/", "/sc/"})
    EXPECT_TRUE(std::any_of(files.begin(), files.end(),
                            [&](const std::string& f) { return f.find(family) != std::string::npos; }))
        << family;
}

TEST(Cli, ScenReportsMapPreparationApartFromQueries) {
  // Annotated A* builds the clearance grid of a 481 x 530 map on its first query: that time is
  // in the summary's prepare_ms and the first result's prepare_ms, not in its time_ms.
  CliRun r = run_cli("scen '" + test::shared_data("dao/brc202d.map.scen") +
                     "' --planner annotated-astar --limit 5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  const double prepare = j["summary"]["prepare_ms"].get<double>();
  EXPECT_GT(prepare, 0.0);
  const auto& results = j["results"];
  ASSERT_EQ(results.size(), 5u);
  EXPECT_DOUBLE_EQ(results[0]["prepare_ms"].get<double>(), prepare);  // paid once, first query
  for (std::size_t i = 1; i < results.size(); ++i) EXPECT_FALSE(results[i].contains("prepare_ms"));
}

TEST(Cli, ScenComparesWithinThePrintedPrecision) {
  // The bg512 set prints optima with two decimals: 2.83 for 2 sqrt 2 = 2.828427 is a match,
  // 2.82 is not (0.0084 away, more than half a unit of the last digit).
  pl::iotest::TempDir dir("scen_tolerance");
  pl::save_map(pl::GridMap(4, 4), dir.file("open.map"));
  auto write = [&](const std::string& name, const std::string& optimal) {
    std::ofstream(dir.file(name)) << "version 1\n0\topen.map\t4\t4\t0\t0\t2\t2\t" << optimal << "\n";
    return dir.file(name);
  };
  CliRun r = run_cli("scen '" + write("two.scen", "2.83") + "' --planner astar --json");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["summary"]["mismatches"].get<int>(), 0);
  EXPECT_NE(j["summary"]["tolerance"].get<std::string>().find("2 decimals"), std::string::npos);
  r = run_cli("scen '" + write("off.scen", "2.82") + "' --planner astar --json");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(nlohmann::json::parse(r.out)["summary"]["mismatches"].get<int>(), 1);
}

TEST(Cli, BadQueryInputIsExitTwoNamingTheProblem) {
  pl::iotest::TempDir dir("cli_bad_input");
  pl::save_map(pl::GridMap(3, 3), dir.file("t3.map"));
  const std::string map = "'" + dir.file("t3.map") + "'";
  struct Case {
    std::string args, says;
  };
  const Case cases[] = {
      {"path " + map + " --start 0.5,0.5 --goal 99.5,0.5", "goal is outside the map (3 x 3 map; --start 0.5,0.5, --goal 99.5,0.5)"},
      {"path " + map + " --start -0.5,0.5 --goal 1.5,0.5 --planner annotated-astar", "start is outside the map"},
      {"path " + map + " --start 0.5,0.5 --goal 1.5,7.5 --planner astar-textbook", "outside the map"},
      {"path " + map + " --start 0.5,0.5 --goal 2.5,0.5 --radius -1", "--radius: '-1' is not a finite number >= 0"},
      {"path " + map + " --start 0.5,0.5 --goal 2.5,0.5 --radius nan", "is not a finite number >= 0"},
      {"path " + map + " --start 0.5,0.5 --goal 2.5,0.5 --turning-radius -0.1", "--turning-radius"},
      {"scen '" + test::shared_data("dao/arena.map.scen") + "' --every 0", "--every: '0' is not a whole number >= 1"},
  };
  for (const Case& c : cases) {
    CliRun r = run_cli(c.args);
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << " said: " << r.err;
    EXPECT_LT(r.err.size(), 300u) << r.err;  // one readable line, no 300-digit ranges
  }
  // A radius of 0 is a legal radius, not "unset".
  EXPECT_EQ(run_cli("path " + map + " --start 0.5,0.5 --goal 2.5,0.5 --radius 0").code, 0);
  // A scenario whose map is missing names the scenario file and line.
  std::ofstream(dir.file("lost.scen")) << "version 1\n0\tmaps/lost.map\t3\t3\t0\t0\t1\t1\t1.41\n";
  CliRun r = run_cli("scen '" + dir.file("lost.scen") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("lost.scen:2: column 2 names map 'maps/lost.map'"), std::string::npos) << r.err;
  // Scene files: a start absurdly far off the map (a little off it is legal: continuous
  // planners ignore the border).
  std::ofstream(dir.file("far.json"))
      << R"({"pathlab_scene": 1, "map": {"width": 4, "height": 2},)"
      << R"( "agents": [{"start": [1e308, -1e308], "goal": [1, 1]}]})";
  r = run_cli("path '" + dir.file("far.json") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("far.json:1: agents[0].start: position 1e+308, -1e+308 is more than 1e+06 map units"),
            std::string::npos)
      << r.err;
}

TEST(Cli, PathJsonHasTheContractFields) {
  CliRun r = run_cli("path '" + test::shared_data("dao/arena.map") + "' --planner astar --start 1.5,11.5 --goal 1.5,12.5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"planner", "found", "length", "path", "expanded", "time_ms"}) EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_TRUE(j["found"].get<bool>());
  EXPECT_NEAR(j["length"].get<double>(), 1.0, 1e-9);
  EXPECT_EQ(j["path"].size(), 2u);
}

TEST(Cli, SampleSceneAnswersItsAgentsQueries) {
  const std::string scene = std::string(PATHLAB_SOURCE_DIR) + "/assets/sample.json";
  for (const char* agent : {"0", "1"}) {
    CliRun r = run_cli("path '" + scene + "' --planner annotated-astar --agent " + agent + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out)["found"].get<bool>());
  }
}

TEST(Cli, ExitCodes) {
  const std::string map = temp_file("walled.map", "type octile\nheight 3\nwidth 3\nmap\n.@.\n.@.\n.@.\n");
  CliRun r = run_cli("path '" + map + "' --start 0.5,0.5 --goal 2.5,2.5");
  EXPECT_EQ(r.code, 1) << "no path is exit 1";
  r = run_cli("path '" + map + "' --planner nope --start 0.5,0.5 --goal 2.5,2.5");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown planner"), std::string::npos) << r.err;
  r = run_cli("path '" + map + "' --set connectivity=5 --start 0.5,0.5 --goal 0.5,2.5");
  EXPECT_EQ(r.code, 2);
  r = run_cli("path '" + map + "' --start 0.5 --goal 0.5,2.5");
  EXPECT_EQ(r.code, 2);
  r = run_cli("frobnicate");
  EXPECT_EQ(r.code, 2);
  r = run_cli("path /nonexistent/file.map --start 0.5,0.5 --goal 0.5,2.5");
  EXPECT_EQ(r.code, 2);
  std::filesystem::remove(map);
}

TEST(Cli, MalformedInputsGiveExit2AndOneLineNamingTheFile) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"truncated.map", "type octile\nheight 4\nwidth 4\nmap\n....\n..\n"},
      {"header.map", "type hexagonal\nheight 2\nwidth 2\nmap\n..\n..\n"},
      {"huge.map", "type octile\nheight 1000000000\nwidth 1000000000\nmap\n"},
      {"number.map", "type octile\nheight 2x\nwidth 2\nmap\n..\n..\n"},
      {"garbage.map", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\xff\xfe", 12)},
      {"char.map", "type octile\nheight 2\nwidth 2\nmap\n.?\n..\n"},
  };
  for (auto& [name, content] : bad) {
    const std::string f = temp_file(name, content);
    CliRun r = run_cli("path '" + f + "' --start 0.5,0.5 --goal 1.5,1.5");
    EXPECT_EQ(r.code, 2) << name;
    EXPECT_NE(r.err.find(name), std::string::npos) << name << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << name << ": " << r.err;
    std::filesystem::remove(f);
  }
  const std::string scen = temp_file("bad.scen", "version 1\n0\tx.map\t4\t4\t1\t1\tfoo\t2\t3.0\n");
  CliRun r = run_cli("scen '" + scen + "' --map '" + test::shared_data("dao/arena.map") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bad.scen:2"), std::string::npos) << r.err;
  std::filesystem::remove(scen);
}

TEST(Cli, ClearanceCsvAndPlannersList) {
  const std::string map = temp_file("cl.map", "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n");
  CliRun r = run_cli("clearance '" + map + "' --capability ground");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "1,1,1\n1,0,1\n");
  r = run_cli("clearance '" + map + "' --capability ground --metric brushfire");
  EXPECT_EQ(r.out, "1,1,1\n1,0,1\n");
  std::filesystem::remove(map);
  r = run_cli("planners --json");
  ASSERT_EQ(r.code, 0);
  auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (auto& p : j) names.push_back(p["name"]);
  for (const char* n : {"astar", "dijkstra", "annotated-astar"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
}

TEST(Cli, BenchReportsEveryPlannerWithoutMismatches) {
  CliRun r = run_cli("bench '" + test::shared_data("dao/arena.map.scen") +
                  "' --planners astar,astar+null,astar+recorder,astar-textbook --repeat 1 --tsv -");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* p : {"astar+null", "astar+recorder", "astar-textbook"})
    EXPECT_NE(r.out.find(p), std::string::npos) << p;
  EXPECT_NE(r.out.find("file\tplanner\tqueries\tmean_us\texpansions_per_s"), std::string::npos);
  // TSV rows: mismatches and unsolved columns are 0 for every row.
  std::istringstream in(r.out.substr(r.out.find("file\tplanner")));
  std::string line;
  std::getline(in, line);
  int rows = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::istringstream ls(line);
    for (std::string c; std::getline(ls, c, '\t');) cols.push_back(c);
    ASSERT_EQ(cols.size(), 11u) << line;  // ... speedup_vs_textbook, prepare_ms
    EXPECT_EQ(cols[7], "0") << line;
    EXPECT_EQ(cols[8], "0") << line;
    EXPECT_GE(std::stod(cols[10]), 0.0) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 8);
}

// Machine output is the whole of standard output: the table for people goes to standard
// error with --json and with --tsv -, so both parse as they are.
TEST(Cli, BenchMachineOutputIsAllOfStandardOutput) {
  const std::string scen = "bench '" + test::shared_data("dao/arena.map.scen") +
                           "' --planners astar-textbook,astar --limit 20 --repeat 1";
  CliRun r = run_cli(scen + " --json --within 2");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);  // throws (fails) on anything but JSON
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j.size(), 4u);  // two planners, the file and ALL
  EXPECT_EQ(j[0]["queries"].get<int>(), 20);
  EXPECT_NE(r.err.find("mean us"), std::string::npos) << r.err;  // the table, for people
  EXPECT_NE(r.err.find("per query against astar-textbook"), std::string::npos) << r.err;
  r = run_cli(scen + " --tsv -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("file\tplanner\tqueries", 0), 0u) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5) << r.out;
  r = run_cli(scen + " --json --tsv -");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--json and --tsv -"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pl
