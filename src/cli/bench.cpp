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

}  // namespace

int run_bench(const BenchOptions& opt) {
  std::vector<Spec> specs;
  for (auto& p : opt.planners) specs.push_back(parse_spec(p));
  if (specs.empty()) throw InputError("--planners: none given");
  const auto files = collect_scens(opt.inputs);

  std::ofstream qtsv;
  if (!opt.queries_tsv.empty()) {
    qtsv.open(opt.queries_tsv);
    if (!qtsv) throw InputError(opt.queries_tsv + ": cannot write");
    qtsv << "file\tplanner\tindex\tfound\tlength\toptimal\texpanded\ttime_us\n";
  }

  std::vector<Row> rows;
  for (auto& file : files) {
    Scenario scen = load_scen(file);
    if (scen.problems.empty()) continue;
    Scene scene;
    scene.map = load_map(find_scen_map(scen, file));
    check_scen_against_map(scen, scene.map, file);
    const size_t n = opt.limit > 0 ? std::min(size_t(opt.limit), scen.problems.size())
                                   : scen.problems.size();
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
    // Warm-up: builds caches (passability, clearance) outside the timed runs; their cost is
    // reported apart (prep ms).
    for (size_t s = 0; s < specs.size(); ++s) {
      Query q;
      const ScenProblem& p = scen.problems[0];
      q.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
      q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
      file_rows[s].prepare_ms = planners[s]->plan(scene, q).prepare_ms;
    }
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
          const ScenProblem& p = scen.problems[i];
          Query q;
          q.start = {p.start_x + 0.5, p.start_y + 0.5, 0};
          q.goal = {p.goal_x + 0.5, p.goal_y + 0.5, 0};
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
        const double opt_len = scen.problems[i].optimal;
        if (!r.found) ++row.unsolved;
        else if (std::abs(r.length - opt_len) > scen.tolerance(i)) ++row.mismatches;
        if (qtsv)
          qtsv << row.file << '\t' << row.label << '\t' << i << '\t' << r.found << '\t' << r.length
               << '\t' << opt_len << '\t' << r.expanded << '\t' << best_times[s][i] * 1000 << '\n';
      }
      rows.push_back(row);
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
  std::printf("%-22s %-22s %8s %12s %14s %12s %11s %6s %8s %9s\n", "file", "planner", "queries",
              "mean us", "expansions/s", "expanded", "memory", "mism.", "speedup", "prep ms");
  for (auto& r : rows) {
    const double mean_us = r.queries ? r.total_ms * 1000.0 / double(r.queries) : 0;
    const double eps = r.total_ms > 0 ? r.expanded / (r.total_ms / 1000.0) : 0;
    const double mean_exp = r.queries ? r.expanded / double(r.queries) : 0;
    const double base = baseline_ms(r);
    const double speedup = base > 0 && r.total_ms > 0 ? base / r.total_ms : 0;
    std::printf("%-22s %-22s %8zu %12.2f %14.0f %12.1f %11s %6zu %8s %9.2f\n", r.file.c_str(),
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
  return kOk;
}

}  // namespace pl::cli
