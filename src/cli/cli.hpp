// pathlab-cli internals shared by the command files: option parsing helpers and the bench.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/scene.hpp"
#include "planners/planner.hpp"

namespace CLI {
class App;
}

namespace pl::cli {

// Exit codes (DESIGN.md section 6).
inline constexpr int kOk = 0;
inline constexpr int kFailed = 1;    // no path / check failed
inline constexpr int kBadInput = 2;

// "X,Y[,HEADING]" -> Pose; throws InputError.
Pose parse_pose(const std::string& text, const char* what);
// ["k=v", ...] -> map; throws InputError.
std::map<std::string, std::string> parse_sets(const std::vector<std::string>& sets);

struct BenchOptions {
  std::vector<std::string> inputs;    // scen files or folders
  std::vector<std::string> planners;  // "astar", "astar+null", "astar+recorder", ...
  std::map<std::string, std::string> sets;
  long limit = 0;                     // problems per file, 0 = all
  int repeat = 3;
  std::string tsv;                    // summary TSV path ("-" = stdout)
  std::string queries_tsv;            // one row per query
  bool json = false;
};
int run_bench(const BenchOptions& opt);

// `scen FILE --coordinates corners` (scen_corners.cpp): any-angle scenarios, start and goal at
// cell corners, Euclidean optima; paths checked for line of sight, ratio to the optimum.
struct ScenCornersOptions {
  std::string scen, map, planner, capability;
  std::map<std::string, std::string> sets;
  long limit = 0, every = 1;
  bool json = false;
};
int cmd_scen_corners(const ScenCornersOptions& o);

// A subcommand added by a planner family's command file: main() parses, then runs the one the
// user named. Each family keeps its options in its own file (haa_cmd.cpp, circles_cmd.cpp).
struct Command {
  CLI::App* sub = nullptr;
  std::function<int()> run;
};
// HAA* commands: abstraction, haa-experiment.
void add_haa_commands(CLI::App& app, std::vector<Command>& out);
// Circle planner commands: circles-bench.
void add_circles_commands(CLI::App& app, std::vector<Command>& out);
// Turning-radius curves: curve.
void add_curve_commands(CLI::App& app, std::vector<Command>& out);
// An independent path check for turning agents: validate (validate_cmd.cpp).
void add_validate_commands(CLI::App& app, std::vector<Command>& out);
// Subgoal graphs: sg-experiment.
void add_subgoal_commands(CLI::App& app, std::vector<Command>& out);

}  // namespace pl::cli
