// The HAA* commands of the real pathlab-cli binary: abstraction, haa-experiment, and `path
// --planner haa` through the registry; exit code 2 with a one-line message on bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include "cli_util.hpp"

namespace pl {
namespace {

namespace fs = std::filesystem;

using pl::test::CliRun;
using pl::test::run_cli;

// A folder with two seeded random .map files (ground and hard obstacles, like the paper's maps).
fs::path map_folder() {
  const fs::path dir =
      fs::temp_directory_path() / ("pathlab_haa_maps_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::mt19937 rng(11);
  for (int m = 0; m < 2; ++m) {
    const int w = 30 + 10 * m, h = 25;
    std::ofstream f(dir / ("m" + std::to_string(m) + ".map"));
    f << "type octile\nheight " << h << "\nwidth " << w << "\nmap\n";
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) f << (rng() % 100 < 15 ? '@' : '.');
      f << "\n";
    }
  }
  return dir;
}

int count_lines(const std::string& s) {
  return int(std::count(s.begin(), s.end(), '\n'));
}

TEST(HaaCli, AbstractionReportsSizesAgainstTheGridGraph) {
  const fs::path dir = map_folder();
  const std::string map = (dir / "m0.map").string();
  for (const char* q : {"initial", "hq", "lq"}) {
    CliRun r = run_cli("abstraction '" + map + "' --cluster-size 6 --quality " + q +
                       " --sizes 1,2 --soft 20 --seed 3 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["quality"], q);
    EXPECT_GT(j["nodes"].get<int>(), 0);
    EXPECT_LT(j["nodes"].get<int>(), j["base_nodes"].get<int>());
    EXPECT_GT(j["base_edges"].get<int>(), j["base_nodes"].get<int>());
    EXPECT_NEAR(j["node_percent"].get<double>(),
                100.0 * j["nodes"].get<double>() / j["base_nodes"].get<double>(), 1e-9);
    EXPECT_EQ(j["edges"].get<int>(), j["inter_edges"].get<int>() + j["intra_edges"].get<int>());
    EXPECT_GE(j["build_ms"].get<double>(), 0.0);
    EXPECT_EQ(j["capabilities"].get<int>(), 3);  // ground, swamp, both
  }
  CliRun text = run_cli("abstraction '" + map + "' --cluster-size 6");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("nodes"), std::string::npos);
  EXPECT_NE(text.out.find("build"), std::string::npos);
  fs::remove_all(dir);
}

TEST(HaaCli, BadInputIsExitTwoWithOneLine) {
  const fs::path dir = map_folder();
  const std::string map = (dir / "m0.map").string();
  const std::pair<std::string, std::string> cases[] = {
      {"abstraction '" + map + "' --quality best", "--quality"},
      {"abstraction '" + map + "' --sizes 1,x", "sizes"},
      {"abstraction '" + map + "' --transitions first", "--transitions"},
      {"abstraction /nonexistent/x.map", "/nonexistent/x.map"},
      {"haa-experiment /nonexistent", "/nonexistent"},
      {"haa-experiment '" + dir.string() + "' --soft 10,abc", "--soft"},
      {"haa-experiment '" + dir.string() + "' --cluster-sizes 1", "--cluster-sizes"},
      {"path '" + map + "' --planner haa --set quality=best --start 0.5,0.5 --goal 1.5,1.5",
       "quality"},
      {"path '" + map + "' --planner haa --set cluster_size=1 --start 0.5,0.5 --goal 1.5,1.5",
       "cluster_size"},
  };
  for (auto& [args, needle] : cases) {
    CliRun r = run_cli(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(count_lines(r.err), 1) << args << ": " << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << args << ": " << r.err;
  }
  fs::remove_all(dir);
}

TEST(HaaCli, PathThroughTheRegistry) {
  const fs::path dir =
      fs::temp_directory_path() / ("pathlab_haa_path_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string map = (dir / "open.map").string();
  {
    std::ofstream f(map);
    f << "type octile\nheight 20\nwidth 30\nmap\n";
    for (int y = 0; y < 20; ++y)
      f << std::string(30, y == 10 ? '@' : '.').replace(15, 2, "..") << "\n";
  }
  for (const char* q : {"hq", "lq", "initial"}) {
    CliRun r = run_cli("path '" + map + "' --planner haa --set quality=" + std::string(q) +
                       " --set cluster_size=5 --start 1.5,1.5 --goal 28.5,18.5 --size 2 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["planner"], "haa");
    EXPECT_TRUE(j["found"].get<bool>());
    EXPECT_GE(j["length"].get<double>(), 27.0);
    EXPECT_TRUE(j["stats"].contains("insertion_expanded"));
    EXPECT_TRUE(j["stats"].contains("abstract_expanded"));
    EXPECT_TRUE(j["stats"].contains("refinement_expanded"));
    EXPECT_EQ(j["expanded"].get<double>(), j["stats"]["insertion_expanded"].get<double>() +
                                               j["stats"]["abstract_expanded"].get<double>());
    // The 2-wide gap at x = 15..16 is the only way down for a size-2 agent.
    bool through_gap = false;
    for (auto& p : j["path"])
      if (p[1].get<double>() == 10.5) through_gap = p[0].get<double>() == 15.5;
    EXPECT_TRUE(through_gap);
  }
  fs::remove_all(dir);
}

TEST(HaaCli, ExperimentPrintsTheTablesAndWritesCsv) {
  const fs::path dir = map_folder();
  const std::string csv = (dir / "out.csv").string();
  CliRun r = run_cli(
      "haa-experiment '" + dir.string() +
      "' --soft 0,20 --cluster-sizes 5,8 --problems 4 --seed 2 --transitions paper,middle --csv '" +
      csv + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* want : {"Table I", "Fig. 5", "Fig. 6", "CS5 hq paper", "CS8 lq middle", "20%SO"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
  std::ifstream f(csv);
  std::string all((std::istreambuf_iterator<char>(f)), {});
  // header + maps x densities x cluster sizes x qualities x placements x problems x sizes
  EXPECT_EQ(count_lines(all), 1 + 2 * 2 * 2 * 2 * 2 * 4 * 2);
  EXPECT_EQ(all.rfind("map,soft,cluster_size,quality,transitions,size,", 0), 0u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pl
