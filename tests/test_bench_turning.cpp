// `pathlab-cli bench` for the turning planners (issue 11): the agent options, --every, the
// per-query comparison with the first planner (--within, the hybrid planner's "within 2x of
// A* + smoothing") and --validate (every path found passes `validate`).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.hpp"
#include "test_util.hpp"

namespace pl {
namespace {

using test::run_cli;

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> cols;
  std::istringstream ls(line);
  for (std::string c; std::getline(ls, c, sep);) cols.push_back(c);
  return cols;
}

// The summary's shares agree with the per-query rows of --queries-tsv, the problems are every
// 10th of the file, and every path the hybrid planner found passed validate.
TEST(BenchTurning, WithinShareAgreesWithThePerQueryTimes) {
  const std::string tsv = (test::temp_dir("bench_turning") / "queries.tsv").string();
  const test::CliRun r = run_cli(
      "bench '" + test::shared_data("dao/arena.map.scen") +
      "' --planners astar-turns,hybrid --set goal_heading=free --radius 0.4 --turning-radius 1 "
      "--every 10 --repeat 1 --within 2 --validate hybrid --queries-tsv '" +
      tsv + "'");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  std::ifstream in(tsv);
  std::string line;
  std::getline(in, line);
  ASSERT_EQ(split(line, '\t').size(), 8u) << line;
  // index -> (found, time) per planner.
  std::map<std::string, std::map<long, std::pair<bool, double>>> rows;
  while (std::getline(in, line)) {
    const auto c = split(line, '\t');
    ASSERT_EQ(c.size(), 8u) << line;
    rows[c[1]][std::stol(c[2])] = {c[3] == "1", std::stod(c[7])};
  }
  std::filesystem::remove_all(std::filesystem::path(tsv).parent_path());
  ASSERT_EQ(rows["astar-turns"].size(), 16u);  // problems 0, 10, ..., 150 of 160
  ASSERT_EQ(rows["hybrid"].size(), 16u);
  int within = 0, found = 0, close = 0;
  for (const auto& [i, h] : rows["hybrid"]) {
    EXPECT_EQ(i % 10, 0) << i;
    const double base = rows["astar-turns"].at(i).second;
    within += h.second <= 2 * base;
    found += h.first;
    // The TSV prints 6 digits: a query this close to 2x may fall on either side.
    close += std::abs(h.second - 2 * base) <= 1e-5 * h.second + 1e-3;
  }
  // The comparison table's hybrid row: "hybrid 16 RATIO P% (2x) ...".
  const size_t at = r.out.find("\nhybrid ", r.out.find("per query against astar-turns"));
  ASSERT_NE(at, std::string::npos) << r.out;
  const auto cols = split(r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1), ' ');
  std::vector<std::string> words;
  for (const auto& c : cols)
    if (!c.empty()) words.push_back(c);
  ASSERT_GE(words.size(), 5u) << r.out;
  EXPECT_EQ(words[1], "16");
  EXPECT_EQ(words[4], "(2x)");
  const double printed = std::stod(words[3]) * 16 / 100;  // "52.9%" -> queries
  EXPECT_LE(std::abs(printed - within), close + 0.05) << r.out;
  // The validate summary names the hybrid planner with its paths found and none failing.
  char want[64];
  std::snprintf(want, sizeof want, "hybrid %d 0", found);
  std::string squeezed;  // runs of spaces as one
  for (const char ch : r.out)
    if (ch != ' ' || squeezed.empty() || squeezed.back() != ' ') squeezed += ch;
  EXPECT_NE(squeezed.find(want), std::string::npos) << want << "\n" << r.out;
  EXPECT_GT(found, 0);
}

// Curved turns ignore obstacles (the article's Figure 1c), so held to validate they fail it:
// exit 1 and the first offending path named.
TEST(BenchTurning, ValidateFailsOnPathsThroughBlockedCells) {
  const test::CliRun r =
      run_cli("bench '" + test::shared_data("dao/arena.map.scen") +
              "' --planners astar-turns --set turns=curved --radius 0.4 --turning-radius 1 "
              "--repeat 1 --validate all");
  EXPECT_EQ(r.code, 1) << r.err << r.out;
  EXPECT_NE(r.err.find("astar-turns"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("overlaps blocked cell"), std::string::npos) << r.err;
}

// brc202d problem 304: the forward and backward Smoothing-48 passes fail 38 path points apart
// (points 51 and 89), more than the article's 12 cells. The hybrid planner used to give up
// there; with alternating Directional-8 / Smoothing-48 sections it finds a path, and that
// path passes validate.
TEST(BenchTurning, HybridAlternatesSectionsWhereTheFailingSectionIsTooWide) {
  const std::string map = test::shared_data("dao/brc202d.map");
  const std::string json = (test::temp_dir("hybrid_sections") / "path.json").string();
  const std::string agent = " --radius 0.4 --turning-radius 1";
  const test::CliRun r =
      run_cli("path '" + map + "' --planner hybrid --set goal_heading=free" + agent +
              " --start 105.5,135.5,0 --goal 218.5,138.5,0 --json > '" + json + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(json);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("alternating Directional-8 / Smoothing-48 sections"), std::string::npos)
      << text;
  const test::CliRun v = run_cli("validate '" + map + "' '" + json + "'" + agent);
  std::filesystem::remove_all(std::filesystem::path(json).parent_path());
  EXPECT_EQ(v.code, 0) << v.err;
}

TEST(BenchTurning, ValidateNamesOnlyPlannersOfTheRun) {
  const test::CliRun r = run_cli("bench '" + test::shared_data("dao/arena.map.scen") +
                                 "' --planners astar --validate hybrid");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--validate: 'hybrid' is not one of --planners"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace pl
