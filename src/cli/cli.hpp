// pathlab-cli internals shared by the command files: option parsing helpers and the bench.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
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
  long every = 1;                     // every k-th problem of a file
  int repeat = 3;
  std::string tsv;                    // summary TSV path ("-" = stdout)
  std::string queries_tsv;            // one row per query
  bool json = false;
  // The agent of every query (the Query defaults when not given).
  std::optional<double> radius, turning_radius;
  // > 0: every other planner's time per query against the first planner's; the share of
  // queries within this factor, and failure shares (the hybrid planner's "within 2x of A* +
  // smoothing", issue 11).
  double within = 0;
  // Planner labels (or "all") whose every path found must pass `validate` (a disc of the
  // query's radius, its turning radius); exit 1 when one does not. Post-processing that
  // ignores obstacles (astar-turns' curved turns) is measured without being held to it.
  std::vector<std::string> validate;
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
// Random problems on a map as a MovingAI scenario: scen-gen (scen_gen.cpp).
void add_scen_gen_commands(CLI::App& app, std::vector<Command>& out);
// An independent path check for turning agents: validate (validate_cmd.cpp).
void add_validate_commands(CLI::App& app, std::vector<Command>& out);
// The same checks on a path given as the text of `path --json` (its "pieces"), for a disc of
// `radius` and the MovingAI default capability: empty when it passes, else the first problem.
// `origin` names the path in messages.
std::string validate_path_text(const Scene& scene, const std::string& json_text,
                               const std::string& origin, double radius, double turning_radius);
// A path's lines and arcs as `path --json` prints them (main.cpp): centre, radius, start angle,
// signed sweep, "reverse": true on pieces driven backwards.
nlohmann::json pieces_json(const std::vector<PathPiece>& pieces);
// Subgoal graphs: sg-experiment.
void add_subgoal_commands(CLI::App& app, std::vector<Command>& out);

}  // namespace pl::cli
