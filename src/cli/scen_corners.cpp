// `pathlab-cli scen FILE --coordinates corners`: any-angle scenarios (../shared/anyangle, the
// competition's any-angle track): start and goal are cell corners, the optimum is the Euclidean
// length of the shortest any-angle path. Every returned path is checked independently: it must
// join the query's corners, every segment must keep line of sight (core/line_of_sight.hpp), the
// pieces must add up to the reported length, and the length may never be below the optimum
// (within the file's printed precision). An exact planner must also match every optimum; any
// other planner is reported by its ratio to the optimum (mean and max % over).
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>

#include "cli/cli.hpp"
#include "core/error.hpp"
#include "core/io.hpp"
#include "core/line_of_sight.hpp"

namespace pl::cli {

using nlohmann::json;

int cmd_scen_corners(const ScenCornersOptions& o) {
  Scenario scen = load_scen(o.scen, /*corners=*/true);
  if (scen.problems.empty()) throw InputError(o.scen + ": no problems");
  const std::string map_path = o.map.empty() ? find_scen_map(scen, o.scen) : o.map;
  Scene scene;
  scene.map = load_map(map_path);
  check_scen_against_map(scen, scene.map, o.scen, /*corners=*/true);
  const PlannerInfo* info = Registry::builtin().find(o.planner);
  auto planner = Registry::builtin().create(o.planner, o.sets);
  Query base;
  if (!o.capability.empty()) base.capability = scene.map.palette().parse_capability(o.capability);
  const CapabilityMask movingai = scene.map.palette().movingai_default_capability();
  if (base.capability == 0) base.capability = movingai;
  // The optima assume the MovingAI capability; the paths are checked against the one used.
  const bool comparable = base.capability == movingai;
  const CornerGrid grid(scene.map, base.capability);
  const bool exact = info && info->optimal;

  const std::size_t stride = o.every > 1 ? std::size_t(o.every) : 1;
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < scen.problems.size(); i += stride) {
    if (o.limit > 0 && chosen.size() >= std::size_t(o.limit)) break;
    chosen.push_back(i);
  }
  constexpr std::size_t kMaxListed = 20;
  json results = json::array();
  std::size_t solved = 0, errors = 0, shorter = 0, broken = 0, mismatches = 0;
  double over_sum = 0, over_max = 0, time_sum = 0, exp_sum = 0, prepare_sum = 0;
  for (std::size_t i : chosen) {
    const ScenProblem& p = scen.problems[i];
    Query q = base;
    q.start = {double(p.start_x), double(p.start_y), 0};
    q.goal = {double(p.goal_x), double(p.goal_y), 0};
    PlanResult r = planner->plan(scene, q);
    if (r.bad_query) throw InputError(o.scen + ": problem " + std::to_string(i) + ": " + r.message);
    prepare_sum += r.prepare_ms;
    time_sum += r.time_ms - r.prepare_ms;
    exp_sum += double(r.expanded);
    std::string error;
    double over = 0;
    const double tol = scen.tolerance(i);
    if (!r.found) {
      error = "no path (" + r.message + ")";
    } else {
      ++solved;
      // The path, checked without trusting the planner: endpoints, line of sight, length.
      std::vector<Vec2> pts;
      double sum = 0;
      for (const PathPiece& piece : r.pieces) {
        if (piece.kind != PathPiece::Kind::Line) {
          error = "the path has an arc";
          break;
        }
        if (pts.empty()) pts.push_back(piece.line.a);
        else if (!(pts.back() == piece.line.a)) error = "the path's pieces are not joined";
        pts.push_back(piece.line.b);
        sum += piece.line.length();
      }
      const Vec2 s{q.start.x, q.start.y}, g{q.goal.x, q.goal.y};
      if (pts.empty() && !(s == g)) error = "an empty path between different corners";
      if (error.empty() && !pts.empty() && (!(pts.front() == s) || !(pts.back() == g)))
        error = "the path does not join the query's corners";
      std::string why;
      if (error.empty() && !grid.path_valid(pts, &why)) {
        error = why;
        ++broken;
      }
      if (error.empty() && std::abs(sum - r.length) > 1e-9 * std::max(1.0, r.length))
        error = "the pieces add up to " + std::to_string(sum) + ", not the reported length";
      if (comparable) {
        over = p.optimal > 0 ? r.length / p.optimal - 1.0 : 0.0;
        if (error.empty() && r.length < p.optimal - tol) {
          error = "shorter than the optimum";
          ++shorter;
        }
        if (std::abs(r.length - p.optimal) > tol) {
          ++mismatches;
          if (error.empty() && exact) error = "does not match the optimum";
        }
      }
      over_sum += over;
      over_max = std::max(over_max, over);
    }
    if (!error.empty()) ++errors;
    json jr;
    jr["index"] = i;
    jr["found"] = r.found;
    jr["length"] = r.found ? json(r.length) : json(nullptr);
    jr["optimal"] = p.optimal;
    jr["percent_over"] = r.found ? json(100.0 * over) : json(nullptr);
    jr["expanded"] = r.expanded;
    jr["time_ms"] = r.time_ms - r.prepare_ms;
    if (!error.empty()) jr["error"] = error;
    if (!error.empty() && !o.json && errors <= kMaxListed)
      std::fprintf(stderr, "%s:%ld: problem %zu: %s (length %s, optimal %.9f)\n", o.scen.c_str(),
                   i < scen.lines.size() ? scen.lines[i] : long(i + 2), i, error.c_str(),
                   r.found ? std::to_string(r.length).c_str() : "none", p.optimal);
    results.push_back(std::move(jr));
  }
  if (!o.json && errors > kMaxListed)
    std::fprintf(stderr, "%s: ... and %zu more errors\n", o.scen.c_str(), errors - kMaxListed);
  const std::size_t n = chosen.size();
  json summary;
  summary["scen"] = o.scen;
  summary["map"] = map_path;
  summary["planner"] = o.planner;
  summary["coordinates"] = "corners";
  summary["problems"] = n;
  summary["solved"] = solved;
  summary["errors"] = errors;
  summary["shorter_than_optimal"] = shorter;
  summary["line_of_sight_broken"] = broken;
  summary["not_optimal"] = mismatches;
  summary["exact_planner"] = exact;
  summary["tolerance"] = scen.tolerance_rule();
  summary["comparable"] = comparable;
  summary["mean_percent_over"] = solved ? 100.0 * over_sum / double(solved) : 0.0;
  summary["max_percent_over"] = 100.0 * over_max;
  summary["time_ms_mean"] = n ? time_sum / double(n) : 0.0;
  summary["prepare_ms"] = prepare_sum;
  summary["expanded_mean"] = n ? exp_sum / double(n) : 0.0;
  summary["ok"] = errors == 0;
  if (o.json) {
    json out;
    out["summary"] = summary;
    out["results"] = std::move(results);
    std::cout << out.dump(1) << "\n";
  } else {
    std::printf("%s with %s (corners): %zu problems, %zu solved, %zu errors (%zu shorter than the "
                "optimum, %zu breaking line of sight), %zu %s the optimum (tolerance: %s); "
                "%.3f%% over the optimum on average, %.3f%% at most; %.4f ms and %.1f expansions "
                "per query (map preparation %.1f ms apart)%s\n",
                o.scen.c_str(), o.planner.c_str(), n, solved, errors, shorter, broken, mismatches,
                exact ? "mismatching" : "longer than", scen.tolerance_rule().c_str(),
                summary["mean_percent_over"].get<double>(), 100.0 * over_max,
                summary["time_ms_mean"].get<double>(), summary["expanded_mean"].get<double>(),
                prepare_sum,
                comparable ? "" : " (capability differs from the scenario's: optima not comparable)");
  }
  return errors ? kFailed : kOk;
}

}  // namespace pl::cli
