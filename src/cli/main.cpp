// pathlab-cli: headless queries, scenario checks, clearance grids, the planner registry and
// benchmarks. Contract: DESIGN.md section 6. Exit codes: 0 success, 1 no path or check failed,
// 2 bad input (with a one-line message on stderr).
#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli/cli.hpp"
#include "core/clearance.hpp"
#include "core/error.hpp"
#include "core/io.hpp"
#include "planners/plan_kind.hpp"
#include "planners/planner.hpp"
#include "viz/posthoc.hpp"
#include "viz/trace.hpp"

namespace pl::cli {

using nlohmann::json;

Pose parse_pose(const std::string& text, const char* what) {
  std::vector<double> v;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(pos, end - pos);
    char* stop = nullptr;
    double d = std::strtod(item.c_str(), &stop);
    if (item.empty() || *stop != '\0' || !std::isfinite(d))
      throw InputError(std::string("--") + what + ": '" + text + "' is not X,Y[,HEADING]");
    v.push_back(d);
    pos = end + 1;
  }
  if (v.size() < 2 || v.size() > 3)
    throw InputError(std::string("--") + what + ": '" + text + "' is not X,Y[,HEADING]");
  return {v[0], v[1], v.size() == 3 ? v[2] : 0.0};
}

std::map<std::string, std::string> parse_sets(const std::vector<std::string>& sets) {
  std::map<std::string, std::string> out;
  for (auto& s : sets) {
    auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--set '" + s + "': expected NAME=VALUE");
    out[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return out;
}

nlohmann::json pieces_json(const std::vector<PathPiece>& in) {
  // The exact geometry: straight pieces and arcs (centre, radius, start angle, signed sweep;
  // angles in radians, positive sweep clockwise on screen), whose lengths add up to "length".
  nlohmann::json pieces = nlohmann::json::array();
  // A piece driven backwards (a gear change) carries "reverse": true.
  for (const PathPiece& p : in) {
    if (p.kind == PathPiece::Kind::Line)
      pieces.push_back({{"line", {p.line.a.x, p.line.a.y, p.line.b.x, p.line.b.y}}});
    else
      pieces.push_back({{"arc",
                         {{"center", {p.arc.center.x, p.arc.center.y}},
                          {"radius", p.arc.radius},
                          {"start", p.arc.start_angle},
                          {"sweep", p.arc.sweep}}}});
    if (p.reverse) pieces.back()["reverse"] = true;
  }
  return pieces;
}

namespace {

json points_json(const PlanResult& r, bool with_heading) {
  json pts = json::array();
  for (auto& p : r.points)
    pts.push_back(with_heading ? json::array({p.x, p.y, p.heading}) : json::array({p.x, p.y}));
  return pts;
}

json result_json(const std::string& planner, const PlanResult& r) {
  json j;
  j["planner"] = planner;
  j["found"] = r.found;
  j["length"] = r.found ? json(r.length) : json(nullptr);
  j["path"] = points_json(r, true);
  j["pieces"] = pieces_json(r.pieces);
  j["expanded"] = r.expanded;
  j["generated"] = r.generated;
  j["time_ms"] = r.time_ms;
  j["memory_bytes"] = r.memory_bytes;
  if (!r.message.empty()) j["message"] = r.message;
  if (!r.stats.empty()) {
    json st = json::object();
    for (auto& [k, v] : r.stats) st[k] = v;
    j["stats"] = st;
  }
  return j;
}

struct QueryOptions {
  std::string planner = "astar";
  std::vector<std::string> sets;
  int size = 1;
  bool size_given = false;
  std::string capability;
  std::optional<double> radius, turning_radius;
};

// A length option: a finite number >= 0 (CLI11's own range checks accept NaN and print their
// range as 300-digit numbers).
CLI::Validator non_negative_length() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < 0)
          return "'" + s + "' is not a finite number >= 0";
        return {};
      },
      "LENGTH>=0");
}

void add_query_options(CLI::App* c, QueryOptions& o) {
  c->add_option("--planner", o.planner, "Planner name (see `pathlab-cli planners`)");
  c->add_option("--set", o.sets, "Planner parameter NAME=VALUE (repeatable)");
  c->add_option("--size", o.size, "Agent size in cells (Annotated A*, HAA*)")->check(CLI::Range(1, 1024));
  c->add_option("--capability", o.capability, "Terrains the agent may enter, e.g. ground,swamp");
  c->add_option("--radius", o.radius, "Agent radius in map units (continuous planners)")
      ->check(non_negative_length());
  c->add_option("--turning-radius", o.turning_radius, "Turning radius in map units")
      ->check(non_negative_length());
}

void apply_query_options(const Scene& scene, const QueryOptions& o, Query& q) {
  if (o.size_given) q.size = o.size;
  if (!o.capability.empty()) q.capability = scene.map.palette().parse_capability(o.capability);
  if (q.capability == 0) q.capability = scene.map.palette().movingai_default_capability();
  if (o.radius) q.radius = *o.radius;
  if (o.turning_radius) q.turning_radius = *o.turning_radius;
}

// ---------------------------------------------------------------------------------------------
// Where `path` records a trace: the Posthoc file to write and the recorder's byte budget
// (0 = default_trace_budget()).
struct TraceOutput {
  std::string file;
  std::string budget_text;
};

int cmd_path(const std::string& file, const QueryOptions& o, const std::string& start,
             const std::string& goal, int agent_index, bool json_out, const TraceOutput& trace_out) {
  std::size_t budget = 0;
  if (!trace_out.budget_text.empty()) {
    const auto b = parse_byte_size(trace_out.budget_text);
    if (!b)
      throw InputError("--trace-budget: '" + trace_out.budget_text +
                       "' is not a size in bytes (e.g. 65536, 64K, 512M, 2G)");
    budget = *b;
  }
  Scene scene = load_any(file);
  auto planner = Registry::builtin().create(o.planner, parse_sets(o.sets));
  Query q;
  if (!scene.agents.empty()) {
    if (agent_index < 0 || agent_index >= int(scene.agents.size()))
      throw InputError(file + ": no agent " + std::to_string(agent_index));
    q = Query::from_agent(scene, scene.agents[size_t(agent_index)]);
  } else if (start.empty() || goal.empty()) {
    throw InputError(file + ": has no agent; give --start and --goal");
  }
  if (!start.empty()) q.start = parse_pose(start, "start");
  if (!goal.empty()) q.goal = parse_pose(goal, "goal");

  apply_query_options(scene, o, q);
  TraceRecorder recorder;
  recorder.set_budget(budget);
  RunContext ctx;
  if (!trace_out.file.empty()) ctx.observer = &recorder;
  PlanResult r = building(file, "the search (" + o.planner + " on a " +
                                           std::to_string(scene.map.width()) + " x " +
                                           std::to_string(scene.map.height()) + " map)",
                                 [&] { return planner->plan(scene, q, ctx); });
  // An endpoint outside the planner's world is a mistake in the command, not a query without a
  // path (grid planners: outside the map; the circles planner has no border).
  if (r.bad_query)
    throw InputError(file + ": " + r.message + " (" + std::to_string(scene.map.width()) + " x " +
                     std::to_string(scene.map.height()) + " map; --start " +
                     (start.empty() ? "from the scene" : start) + ", --goal " +
                     (goal.empty() ? "from the scene" : goal) + ")");
  json trace_json;
  if (!trace_out.file.empty()) {
    const Trace trace = recorder.take();
    write_file_atomic(trace_out.file, to_posthoc(trace));
    trace_json = {{"file", trace_out.file},
                  {"frames", trace.frame_count()},
                  {"events", trace.event_count()},
                  {"budget_bytes", trace.budget()},
                  {"truncated", trace.truncated()}};
    if (trace.truncated()) {
      trace_json["truncated_frame"] = trace.truncated_frame();
      // The result below is the whole search's; only the recording stopped.
      std::fprintf(stderr,
                   "pathlab-cli: trace truncated at frame %zu (budget %zu bytes); the search "
                   "ran to its end\n",
                   trace.truncated_frame(), trace.budget());
    }
  }
  if (json_out) {
    json j = result_json(o.planner, r);
    if (!trace_json.is_null()) j["trace"] = trace_json;
    std::cout << j.dump(1) << "\n";
  } else if (r.found) {
    std::printf("%s: found, length %.6f, %llu expanded, %.3f ms, %zu points\n", o.planner.c_str(),
                r.length, (unsigned long long)r.expanded, r.time_ms, r.points.size());
    for (auto& p : r.points) std::printf("%g,%g\n", p.x, p.y);
  } else {
    std::printf("%s: no path (%s), %llu expanded, %.3f ms\n", o.planner.c_str(), r.message.c_str(),
                (unsigned long long)r.expanded, r.time_ms);
  }
  return r.found ? kOk : kFailed;
}

// ---------------------------------------------------------------------------------------------
int cmd_scen(const std::string& scen_path, const std::string& map_arg, const QueryOptions& o,
             long limit, long every, bool json_out) {
  Scenario scen = load_scen(scen_path);
  if (scen.problems.empty()) throw InputError(scen_path + ": no problems");
  const std::string map_path = map_arg.empty() ? find_scen_map(scen, scen_path) : map_arg;
  Scene scene;
  scene.map = load_map(map_path);
  check_scen_against_map(scen, scene.map, scen_path);
  const PlannerInfo* info = Registry::builtin().find(o.planner);
  if (info && info->coordinates == QueryCoordinates::Corners)
    throw InputError("planner " + o.planner + " answers corner queries; use --coordinates corners");
  auto planner = Registry::builtin().create(o.planner, parse_sets(o.sets));
  Query base;
  apply_query_options(scene, o, base);
  // Scenario optima assume a size-1 agent with the MovingAI capability.
  const bool comparable =
      base.size == 1 && base.capability == scene.map.palette().movingai_default_capability();

  constexpr size_t kMaxListed = 20;  // mismatches listed on stderr in text mode
  // Problems taken: every `every`-th (0, every, 2*every, ...), at most `limit` of them.
  const size_t stride = every > 1 ? size_t(every) : 1;
  std::vector<size_t> chosen;
  for (size_t i = 0; i < scen.problems.size(); i += stride) {
    if (limit > 0 && chosen.size() >= size_t(limit)) break;
    chosen.push_back(i);
  }
  const size_t n = chosen.size();
  json results = json::array();
  size_t solved = 0, mismatches = 0, shorter = 0;
  // Per run: whether a mismatch is a failure and a shorter path an error (PlanResult::metric;
  // the registry's flag when the planner does not say).
  size_t must_match_mismatches = 0, anyangle_shorter = 0;
  double ratio_sum = 0, time_sum = 0, exp_sum = 0, prepare_sum = 0;
  for (size_t i : chosen) {
    const ScenProblem& p = scen.problems[i];
    Query q = base;
    q.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
    q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
    PlanResult r = planner->plan(scene, q);
    // Preparing the map (padded grid, clearance, an abstraction) is reported apart: it is paid
    // once per map and agent, and would otherwise land in the first query's time.
    prepare_sum += r.prepare_ms;
    time_sum += r.time_ms - r.prepare_ms;
    exp_sum += double(r.expanded);
    bool mismatch = true;
    if (r.found) {
      ++solved;
      const double tol = scen.tolerance(i);
      mismatch = std::abs(r.length - p.optimal) > tol;
      const bool anyangle = r.metric == PlanResult::Metric::AnyAngle;
      const bool must_match = promises_optimum(r, info);
      if (r.length < p.optimal - tol) ++(anyangle ? anyangle_shorter : shorter);
      if (mismatch && must_match) ++must_match_mismatches;
      if (p.optimal > 0) ratio_sum += r.length / p.optimal;
      else ratio_sum += 1.0;
    }
    if (mismatch) ++mismatches;
    json jr;
    jr["index"] = i;
    jr["found"] = r.found;
    jr["length"] = r.found ? json(r.length) : json(nullptr);
    jr["optimal"] = p.optimal;
    jr["expanded"] = r.expanded;
    jr["time_ms"] = r.time_ms - r.prepare_ms;
    if (r.prepare_ms > 0) jr["prepare_ms"] = r.prepare_ms;
    if (!r.message.empty()) jr["message"] = r.message;
    if (mismatch && !json_out && comparable && mismatches <= kMaxListed)
      std::fprintf(stderr, "%s:%ld: problem %zu: length %s, optimal %.8g\n", scen_path.c_str(),
                   i < scen.lines.size() ? scen.lines[i] : long(i + 2), i,
                   r.found ? std::to_string(r.length).c_str() : "none", p.optimal);
    results.push_back(std::move(jr));
  }
  if (!json_out && comparable && mismatches > kMaxListed)
    std::fprintf(stderr, "%s: ... and %zu more mismatches\n", scen_path.c_str(),
                 mismatches - kMaxListed);
  json summary;
  summary["scen"] = scen_path;
  summary["map"] = map_path;
  summary["planner"] = o.planner;
  summary["problems"] = n;
  summary["solved"] = solved;
  summary["mismatches"] = mismatches;
  summary["tolerance"] = scen.tolerance_rule();
  summary["shorter_than_optimal"] = shorter;
  // Any-angle paths below the 8-connected optimum: expected, not errors.
  summary["shorter_any_angle"] = anyangle_shorter;
  summary["comparable"] = comparable;
  summary["mean_ratio"] = solved ? ratio_sum / double(solved) : 0.0;
  summary["time_ms_mean"] = n ? time_sum / double(n) : 0.0;  // preparation excluded
  summary["prepare_ms"] = prepare_sum;
  summary["expanded_mean"] = n ? exp_sum / double(n) : 0.0;
  const bool failed = comparable && (solved < n || shorter > 0 || must_match_mismatches > 0);
  summary["ok"] = !failed;
  if (json_out) {
    json out;
    out["summary"] = summary;
    out["results"] = std::move(results);
    std::cout << out.dump(1) << "\n";
  } else {
    std::printf("%s with %s: %zu problems, %zu solved, %zu mismatches (within %s), mean ratio %.6f, "
                "%.4f ms and %.1f expansions per query (map preparation %.1f ms apart)%s\n",
                scen_path.c_str(), o.planner.c_str(), n, solved, mismatches,
                scen.tolerance_rule().c_str(),
                summary["mean_ratio"].get<double>(), summary["time_ms_mean"].get<double>(),
                summary["expanded_mean"].get<double>(), prepare_sum,
                comparable ? "" : " (size/capability differ from the scenario's: optima not comparable)");
    if (anyangle_shorter > 0)
      std::printf("%zu any-angle paths shorter than the 8-connected optimum (expected: not errors)\n",
                  anyangle_shorter);
  }
  return failed ? kFailed : kOk;
}

// ---------------------------------------------------------------------------------------------
int cmd_clearance(const std::string& file, const std::string& capability, const std::string& metric) {
  Scene scene = load_any(file);
  const Palette& pal = scene.map.palette();
  const CapabilityMask cap =
      capability.empty() ? pal.movingai_default_capability() : pal.parse_capability(capability);
  const ClearanceGrid cl = compute_clearance(
      scene.map, cap, metric == "brushfire" ? ClearanceMetric::Brushfire : ClearanceMetric::True);
  const int w = scene.map.width();
  std::string line;
  for (int y = 0; y < scene.map.height(); ++y) {
    line.clear();
    for (int x = 0; x < w; ++x) {
      if (x) line += ',';
      line += std::to_string(cl[size_t(y) * w + x]);
    }
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stdout);
  }
  return kOk;
}

// ---------------------------------------------------------------------------------------------
int cmd_planners(bool json_out) {
  const auto& all = Registry::builtin().all();
  if (json_out) {
    json arr = json::array();
    for (auto& p : all) {
      json jp;
      jp["name"] = p.name;
      jp["family"] = p.family;
      jp["optimal"] = p.optimal;
      jp["coordinates"] = coordinates_name(p.coordinates);
      jp["description"] = p.description;
      json params = json::array();
      for (auto& d : p.params) {
        json jd;
        jd["name"] = d.name;
        jd["type"] = param_type_name(d.type);
        jd["description"] = d.description;
        jd["default"] = d.default_value;
        if (d.type == ParamDesc::Type::Enum) jd["choices"] = d.choices;
        if (d.type == ParamDesc::Type::Int || d.type == ParamDesc::Type::Double) {
          jd["min"] = d.min;
          jd["max"] = d.max;
        }
        params.push_back(jd);
      }
      jp["params"] = params;
      arr.push_back(jp);
    }
    std::cout << arr.dump(1) << "\n";
    return kOk;
  }
  for (auto& p : all) {
    std::printf("%-18s %-24s %s%s\n  %s\n", p.name.c_str(), p.family.c_str(),
                p.optimal ? "optimal" : "not optimal",
                p.coordinates == QueryCoordinates::Corners ? ", corner queries" : "",
                p.description.c_str());
    for (auto& d : p.params) {
      std::string range;
      if (d.type == ParamDesc::Type::Enum) {
        for (auto& c : d.choices) range += (range.empty() ? "" : "|") + c;
      } else if (d.type != ParamDesc::Type::Bool) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%g..%g", d.min, d.max);
        range = buf;
      } else {
        range = "true|false";
      }
      std::printf("    --set %s=%s  (%s %s) %s\n", d.name.c_str(), d.default_value.c_str(),
                  param_type_name(d.type), range.c_str(), d.description.c_str());
    }
  }
  return kOk;
}

}  // namespace
}  // namespace pl::cli

int main(int argc, char** argv) {
  using namespace pl::cli;
  CLI::App app{"pathlab-cli: headless pathfinding queries, scenario checks and benchmarks"};
  app.require_subcommand(1);

  // path
  QueryOptions path_opt;
  std::string path_file, path_start, path_goal;
  int path_agent = 0;
  bool path_json = false;
  auto* path = app.add_subcommand("path", "Answer one query on a .map, scene or PNG file");
  path->add_option("file", path_file, "Map (.map), scene (.json) or PNG file")->required();
  path->add_option("--start", path_start, "Start X,Y[,HEADING] in map units (cell centre = x+0.5)");
  path->add_option("--goal", path_goal, "Goal X,Y[,HEADING]");
  path->add_option("--agent", path_agent, "Scene agent to take defaults from (index)");
  path->add_flag("--json", path_json, "Machine-readable output");
  TraceOutput path_trace;
  path->add_option("--trace", path_trace.file,
                   "Record the search and write it as a Posthoc trace (JSON) to this file");
  path->add_option("--trace-budget", path_trace.budget_text,
                   "Most memory the recording may take (bytes, or 64K, 512M, 2G); past it the "
                   "trace stops and the search runs on (default: PATHLAB_TRACE_BUDGET, else a "
                   "quarter of physical memory)");
  add_query_options(path, path_opt);

  // scen
  QueryOptions scen_opt;
  std::string scen_file, scen_map;
  long scen_limit = 0, scen_every = 1;
  bool scen_json = false;
  auto* scen = app.add_subcommand("scen", "Run a MovingAI scenario and compare with its optimal lengths");
  scen->add_option("scen", scen_file, "Scenario file (.scen)")->required();
  scen->add_option("--map", scen_map, "Map file (default: basename of column 2 next to the scen)");
  scen->add_option("--limit", scen_limit, "Run at most N problems")->check(CLI::NonNegativeNumber);
  scen->add_option("--every", scen_every, "Run every K-th problem (a sample that still spans all buckets)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            long v = 0;
            const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
            if (ec != std::errc() || end != s.data() + s.size() || v < 1)
              return "'" + s + "' is not a whole number >= 1";
            return {};
          },
          "K>=1"));
  scen->add_flag("--json", scen_json, "Machine-readable output");
  std::string scen_coordinates = "cells";
  scen->add_option("--coordinates", scen_coordinates,
                   "cells: MovingAI (start and goal are cells); corners: any-angle scenarios "
                   "(start and goal are cell corners, Euclidean optima)")
      ->check(CLI::IsMember({"cells", "corners"}));
  add_query_options(scen, scen_opt);

  // clearance
  std::string cl_file, cl_cap, cl_metric = "true";
  auto* clearance = app.add_subcommand("clearance", "Print the clearance grid as CSV rows");
  clearance->add_option("file", cl_file, "Map, scene or PNG file")->required();
  clearance->add_option("--capability", cl_cap, "Terrains, e.g. ground,swamp (default: ground,swamp)");
  clearance->add_option("--metric", cl_metric, "true (HAA*) or brushfire")
      ->check(CLI::IsMember({"true", "brushfire"}));

  // planners
  bool planners_json = false;
  auto* planners = app.add_subcommand("planners", "List the planner registry");
  planners->add_flag("--json", planners_json, "Machine-readable output");

  // bench
  BenchOptions bench_opt;
  std::vector<std::string> bench_sets;
  std::string bench_planners = "astar,astar-textbook";
  auto* bench = app.add_subcommand("bench", "Benchmark planners on scenario files or folders");
  bench->add_option("inputs", bench_opt.inputs, "Scenario files or folders of them")->required();
  bench->add_option("--planners", bench_planners,
                    "Comma-separated planners; NAME+null attaches a do-nothing observer, "
                    "NAME+recorder records a full trace");
  bench->add_option("--set", bench_sets, "Planner parameter NAME=VALUE for every planner that has it");
  bench->add_option("--limit", bench_opt.limit, "Problems per file (0 = all)");
  bench->add_option("--every", bench_opt.every, "Every K-th problem of a file (before --limit)")
      ->check(CLI::Range(1L, 1000000L));
  bench->add_option("--repeat", bench_opt.repeat, "Runs per planner; the fastest counts")
      ->check(CLI::Range(1, 100));
  bench->add_option("--tsv", bench_opt.tsv, "Write the summary table as TSV to this file (- = stdout)");
  bench->add_option("--queries-tsv", bench_opt.queries_tsv, "Write one TSV row per query");
  bench->add_flag("--json", bench_opt.json, "Summary as JSON");
  bench->add_option("--radius", bench_opt.radius, "Agent radius in map units (turning planners)")
      ->check(non_negative_length());
  bench->add_option("--turning-radius", bench_opt.turning_radius, "Turning radius in map units")
      ->check(non_negative_length());
  bench
      ->add_option("--within", bench_opt.within,
                   "Compare every planner's time per query with the first planner's: the share "
                   "within this factor, and the failure shares")
      ->check(CLI::Range(1.0, 1e6));
  bench
      ->add_option("--validate", bench_opt.validate,
                   "Planners (labels, or all) whose every path found must pass `validate` (disc "
                   "of the agent's radius, turning radius); exit 1 when one does not")
      ->delimiter(',');

  std::vector<Command> family_commands;
  add_haa_commands(app, family_commands);
  add_circles_commands(app, family_commands);
  add_curve_commands(app, family_commands);
  add_validate_commands(app, family_commands);
  add_subgoal_commands(app, family_commands);
  add_scen_gen_commands(app, family_commands);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "pathlab-cli: %s\n", e.what());
    return kBadInput;
  }

  try {
    if (*path) {
      path_opt.size_given = path->count("--size") > 0;
      return cmd_path(path_file, path_opt, path_start, path_goal, path_agent, path_json, path_trace);
    }
    if (*scen) {
      scen_opt.size_given = scen->count("--size") > 0;
      if (scen_coordinates == "corners")
        return cmd_scen_corners({scen_file, scen_map, scen_opt.planner, scen_opt.capability,
                                 parse_sets(scen_opt.sets), scen_limit, scen_every, scen_json});
      return cmd_scen(scen_file, scen_map, scen_opt, scen_limit, scen_every, scen_json);
    }
    for (const Command& c : family_commands)
      if (*c.sub) return c.run();
    if (*clearance) return cmd_clearance(cl_file, cl_cap, cl_metric);
    if (*planners) return cmd_planners(planners_json);
    if (*bench) {
      size_t pos = 0;
      while (pos <= bench_planners.size()) {
        size_t end = bench_planners.find(',', pos);
        if (end == std::string::npos) end = bench_planners.size();
        if (end > pos) bench_opt.planners.push_back(bench_planners.substr(pos, end - pos));
        pos = end + 1;
      }
      bench_opt.sets = parse_sets(bench_sets);
      return run_bench(bench_opt);
    }
  } catch (const pl::InputError& e) {
    std::fprintf(stderr, "pathlab-cli: %s\n", e.what());
    return kBadInput;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "pathlab-cli: out of memory\n");
    return kBadInput;
  }
  return kBadInput;
}
