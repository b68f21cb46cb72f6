// `pathlab-cli bench`: runs scenario files with several planners in one process and reports, per
// file and planner, mean time per query, expansions per second and memory, as a table and TSV.
// Planner specs may end in "+null" (a do-nothing observer attached, to measure the hook's cost)
// or "+recorder" (a full trace recorded per query).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/cli.hpp"
#include "core/error.hpp"
#include "core/io.hpp"
#include "core/search.hpp"
#include "viz/trace.hpp"

namespace pl::cli {

namespace {

namespace fs = std::filesystem;

struct Spec {
  std::string label, planner, observer;  // observer: "", "null", "recorder"
};

struct Row {
  std::string file, label;
  size_t queries = 0, mismatches = 0, unsolved = 0;
  double total_ms = 1e300;
  double expanded = 0;
  size_t memory = 0;
  double prepare_ms = 0;  // the warm-up query's preparation (padded grid, clearance, ...)
};

std::vector<std::string> collect_scens(const std::vector<std::string>& inputs) {
  std::vector<std::string> out;
  for (auto& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      std::vector<std::string> found;
      for (auto& e : fs::recursive_directory_iterator(in, ec))
        if (e.is_regular_file() && e.path().extension() == ".scen") found.push_back(e.path().string());
      std::sort(found.begin(), found.end());
      if (found.empty()) throw InputError(in + ": no .scen files in this folder");
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::exists(in, ec)) {
      out.push_back(in);
    } else {
      throw InputError(in + ": no such file or folder");
    }
  }
  return out;
}

Spec parse_spec(const std::string& s) {
  Spec sp;
  sp.label = s;
  auto plus = s.find('+');
  sp.planner = s.substr(0, plus);
  if (plus != std::string::npos) {
    sp.observer = s.substr(plus + 1);
    if (sp.observer != "null" && sp.observer != "recorder")
      throw InputError("--planners: '" + s + "': the suffix must be +null or +recorder");
  }
  if (!Registry::builtin().find(sp.planner))
    throw InputError("--planners: unknown planner '" + sp.planner + "'");
  return sp;
}

std::string human_bytes(double b) {
  char buf[64];
  if (b >= 1 << 20) std::snprintf(buf, sizeof buf, "%.1f MiB", b / (1 << 20));
  else std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024);
  return buf;
}

// One planner's queries against the first planner's (`--within`), summed over all files.
struct Comparison {
  size_t queries = 0, within = 0, within_solved = 0, solved = 0, first_solved = 0;
  size_t failed_where_first_solved = 0;
  std::vector<double> ratios;  // time / first planner's time, per query
};

void compare_with_first(const std::vector<std::vector<PlanResult>>& last,
                        const std::vector<std::vector<double>>& times, size_t s, double factor,
                        Comparison& c) {
  for (size_t i = 0; i < last[s].size(); ++i) {
    const bool found = last[s][i].found, first_found = last[0][i].found;
    const double t = times[s][i], t0 = times[0][i];
    ++c.queries;
    c.solved += found;
    c.first_solved += first_found;
    c.failed_where_first_solved += first_found && !found;
    c.within += t <= factor * t0;
    c.within_solved += found && t <= factor * t0;
    c.ratios.push_back(t0 > 0 ? t / t0 : INFINITY);
  }
}

double share(size_t part, size_t whole) {
  return whole ? 100.0 * double(part) / double(whole) : 0.0;
}

void print_comparisons(std::FILE* out, const std::vector<Spec>& specs,
                       std::vector<Comparison>& cmp, double factor) {
  std::fprintf(out, "\nper query against %s (the fastest of the --repeat runs of each):\n",
               specs[0].label.c_str());
  std::fprintf(out, "%-22s %8s %12s %12s %14s %9s %9s %18s\n", "planner", "queries", "median ratio",
              "within", "within+solved", "solved", "failed", "failed, 1st solved");
  for (size_t s = 1; s < specs.size(); ++s) {
    Comparison& c = cmp[s];
    std::sort(c.ratios.begin(), c.ratios.end());
    const double median = c.ratios.empty() ? 0.0 : c.ratios[c.ratios.size() / 2];
    char within[32];
    std::snprintf(within, sizeof within, "%.1f%% (%gx)", share(c.within, c.queries), factor);
    std::fprintf(
        out, "%-22s %8zu %12.2f %12s %13.1f%% %8.1f%% %8.1f%% %17.1f%%\n", specs[s].label.c_str(),
        c.queries, median, within, share(c.within_solved, c.queries), share(c.solved, c.queries),
        share(c.queries - c.solved, c.queries), share(c.failed_where_first_solved, c.first_solved));
  }
}

}  // namespace

int run_bench(const BenchOptions& opt) {
  std::vector<Spec> specs;
  for (auto& p : opt.planners) specs.push_back(parse_spec(p));
  if (specs.empty()) throw InputError("--planners: none given");
  if (opt.json && opt.tsv == "-")
    throw InputError("--json and --tsv - both write to standard output: give --tsv a file");
  const auto files = collect_scens(opt.inputs);
  // With machine output on standard output (--json, --tsv -), the tables for people go to
  // standard error, so that the output parses as it is.
  std::FILE* human = opt.json || opt.tsv == "-" ? stderr : stdout;

  std::ofstream qtsv;
  if (!opt.queries_tsv.empty()) {
    qtsv.open(opt.queries_tsv);
    if (!qtsv) throw InputError(opt.queries_tsv + ": cannot write");
    qtsv << "file\tplanner\tindex\tfound\tlength\toptimal\texpanded\ttime_us\n";
  }

  std::vector<Row> rows;
  std::vector<Comparison> cmp(specs.size());
  std::vector<size_t> checked(specs.size()), invalid(specs.size());
  std::vector<bool> validated(specs.size());
  for (const std::string& v : opt.validate) {
    bool known = v == "all";
    for (size_t s = 0; s < specs.size(); ++s)
      if (v == "all" || specs[s].label == v) validated[s] = known = true;
    if (!known) throw InputError("--validate: '" + v + "' is not one of --planners");
  }
  for (auto& file : files) {
    Scenario scen = load_scen(file);
    if (scen.problems.empty()) continue;
    Scene scene;
    scene.map = load_map(find_scen_map(scen, file));
    check_scen_against_map(scen, scene.map, file);
    // The problems run: every `every`-th (scenario files list them by length bucket, so this
    // spreads a limited run over all lengths), at most `limit`.
    std::vector<size_t> picked;
    for (size_t i = 0; i < scen.problems.size(); i += size_t(opt.every))
      if (opt.limit <= 0 || picked.size() < size_t(opt.limit)) picked.push_back(i);
    const size_t n = picked.size();
    std::vector<std::unique_ptr<Planner>> planners;
    std::vector<Row> file_rows;
    for (auto& sp : specs) {
      const PlannerInfo* info = Registry::builtin().find(sp.planner);
      std::map<std::string, std::string> sets;
      for (auto& [k, v] : opt.sets)
        for (auto& d : info->params)
          if (d.name == k) sets[k] = v;
      planners.push_back(Registry::builtin().create(sp.planner, sets));
      Row r;
      r.file = fs::path(file).filename().string();
      r.label = sp.label;
      r.queries = n;
      file_rows.push_back(r);
    }
    // Cell centres, both facing east (a scenario has no headings).
    const auto query = [&](size_t i) {
      const ScenProblem& p = scen.problems[picked[i]];
      Query q;
      q.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
      q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
      if (opt.radius) q.radius = *opt.radius;
      if (opt.turning_radius) q.turning_radius = *opt.turning_radius;
      return q;
    };
    // Warm-up: builds caches (passability, clearance) outside the timed runs; their cost is
    // reported apart (prep ms).
    for (size_t s = 0; s < specs.size(); ++s)
      file_rows[s].prepare_ms = planners[s]->plan(scene, query(0)).prepare_ms;
    std::vector<std::vector<double>> best_times(specs.size());
    std::vector<std::vector<PlanResult>> last(specs.size());
    for (int rep = 0; rep < opt.repeat; ++rep) {
      for (size_t s = 0; s < specs.size(); ++s) {
        NullObserver null_obs;
        std::vector<double> times(n);
        std::vector<PlanResult> results(n);
        double total = 0, expanded = 0;
        size_t memory = 0;
        size_t truncated = 0, budget = 0;
        for (size_t i = 0; i < n; ++i) {
          const Query q = query(i);
          std::unique_ptr<TraceRecorder> rec;
          RunContext ctx;
          if (specs[s].observer == "null") ctx.observer = &null_obs;
          if (specs[s].observer == "recorder") {
            rec = std::make_unique<TraceRecorder>();
            ctx.observer = rec.get();
          }
          const Stopwatch clock;
          PlanResult r = planners[s]->plan(scene, q, ctx);
          const double ms = clock.ms();
          // A recording that stopped at its budget (docs/memory.md) timed less recording.
          if (rec && rec->stopped()) {
            ++truncated;
            budget = rec->budget();
          }
          times[i] = ms;
          total += ms;
          expanded += double(r.expanded);
          memory = std::max({memory, r.memory_bytes, planners[s]->memory_bytes()});
          results[i] = std::move(r);
        }
        if (truncated > 0 && rep == 0)
          std::fprintf(stderr,
                       "pathlab-cli: %s: %s: %zu of %zu traces truncated at the %zu-byte budget "
                       "(PATHLAB_TRACE_BUDGET): their times include less recording\n",
                       file.c_str(), specs[s].label.c_str(), truncated, n, budget);
        Row& row = file_rows[s];
        if (total < row.total_ms) {
          row.total_ms = total;
          row.expanded = expanded;
          row.memory = memory;
          best_times[s] = std::move(times);
        }
        last[s] = std::move(results);
      }
    }
    for (size_t s = 0; s < specs.size(); ++s) {
      Row& row = file_rows[s];
      for (size_t i = 0; i < n; ++i) {
        const PlanResult& r = last[s][i];
        const double opt_len = scen.problems[picked[i]].optimal;
        if (!r.found) ++row.unsolved;
        else if (std::abs(r.length - opt_len) > scen.tolerance(picked[i]))
          ++row.mismatches;
        if (qtsv)
          qtsv << row.file << '\t' << row.label << '\t' << picked[i] << '\t' << r.found << '\t'
               << r.length << '\t' << opt_len << '\t' << r.expanded << '\t'
               << best_times[s][i] * 1000 << '\n';
      }
      rows.push_back(row);
    }
    if (opt.within > 0)
      for (size_t s = 1; s < specs.size(); ++s)
        compare_with_first(last, best_times, s, opt.within, cmp[s]);
    for (size_t s = 0; s < specs.size(); ++s)
      if (validated[s])
        for (size_t i = 0; i < n; ++i) {
          const PlanResult& r = last[s][i];
          if (!r.found) continue;
          ++checked[s];
          const Query q = query(i);
          const std::string origin =
              file + " problem " + std::to_string(picked[i]) + " " + specs[s].label;
          const std::string text = nlohmann::json{{"pieces", pieces_json(r.pieces)}}.dump();
          const std::string problem =
              validate_path_text(scene, text, origin, q.radius, q.turning_radius);
          if (problem.empty()) continue;
          if (invalid[s]++ == 0)
            std::fprintf(stderr, "pathlab-cli: bench: %s: %s\n", origin.c_str(), problem.c_str());
        }
  }

  // Totals per planner over all files.
  for (auto& sp : specs) {
    Row t;
    t.file = "ALL";
    t.label = sp.label;
    t.total_ms = 0;
    for (auto& r : rows)
      if (r.label == sp.label && r.file != "ALL") {
        t.queries += r.queries;
        t.total_ms += r.total_ms;
        t.expanded += r.expanded;
        t.mismatches += r.mismatches;
        t.unsolved += r.unsolved;
        t.memory = std::max(t.memory, r.memory);
        t.prepare_ms += r.prepare_ms;
      }
    rows.push_back(t);
  }

  auto baseline_ms = [&](const Row& r) -> double {
    for (auto& o : rows)
      if (o.file == r.file && o.label == "astar-textbook") return o.total_ms;
    return 0;
  };

  nlohmann::json js = nlohmann::json::array();
  std::string tsv = "file\tplanner\tqueries\tmean_us\texpansions_per_s\tmean_expanded\tmemory_bytes\t"
                    "mismatches\tunsolved\tspeedup_vs_textbook\tprepare_ms\n";
  std::fprintf(human, "%-22s %-22s %8s %12s %14s %12s %11s %6s %8s %9s\n", "file", "planner",
               "queries", "mean us", "expansions/s", "expanded", "memory", "mism.", "speedup", "prep ms");
  for (auto& r : rows) {
    const double mean_us = r.queries ? r.total_ms * 1000.0 / double(r.queries) : 0;
    const double eps = r.total_ms > 0 ? r.expanded / (r.total_ms / 1000.0) : 0;
    const double mean_exp = r.queries ? r.expanded / double(r.queries) : 0;
    const double base = baseline_ms(r);
    const double speedup = base > 0 && r.total_ms > 0 ? base / r.total_ms : 0;
    std::fprintf(human, "%-22s %-22s %8zu %12.2f %14.0f %12.1f %11s %6zu %8s %9.2f\n", r.file.c_str(),
                r.label.c_str(), r.queries, mean_us, eps, mean_exp, human_bytes(double(r.memory)).c_str(),
                r.mismatches + r.unsolved, speedup > 0 ? (std::to_string(speedup).substr(0, 5) + "x").c_str() : "-",
                r.prepare_ms);
    char line[512];
    std::snprintf(line, sizeof line, "%s\t%s\t%zu\t%.3f\t%.0f\t%.2f\t%zu\t%zu\t%zu\t%.4f\t%.3f\n", r.file.c_str(),
                  r.label.c_str(), r.queries, mean_us, eps, mean_exp, r.memory, r.mismatches,
                  r.unsolved, speedup, r.prepare_ms);
    tsv += line;
    js.push_back({{"file", r.file}, {"planner", r.label}, {"queries", r.queries}, {"mean_us", mean_us},
                  {"expansions_per_s", eps}, {"mean_expanded", mean_exp}, {"memory_bytes", r.memory},
                  {"mismatches", r.mismatches}, {"unsolved", r.unsolved}, {"speedup_vs_textbook", speedup},
                  {"prepare_ms", r.prepare_ms}});
  }
  if (!opt.tsv.empty()) {
    if (opt.tsv == "-") std::fputs(tsv.c_str(), stdout);
    else write_file_atomic(opt.tsv, tsv);
  }
  if (opt.json) std::cout << js.dump(1) << "\n";
  if (opt.within > 0) print_comparisons(human, specs, cmp, opt.within);
  bool all_valid = true;
  if (!opt.validate.empty()) {
    std::fprintf(human, "\nvalidate (disc of the agent's radius, turning radius): paths found / failing\n");
    for (size_t s = 0; s < specs.size(); ++s)
      if (validated[s]) {
        std::fprintf(human, "%-22s %8zu %8zu\n", specs[s].label.c_str(), checked[s], invalid[s]);
        all_valid &= invalid[s] == 0;
      }
  }
  return all_valid ? kOk : kFailed;
}

}  // namespace pl::cli
