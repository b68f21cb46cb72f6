// Circle planner commands of pathlab-cli (issue 5): circles-bench, eager against lazy graph
// construction on seeded random forests of circles, overlapping and kept apart.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/cli.hpp"
#include "core/error.hpp"
#include "planners/circles.hpp"

namespace pl::cli {

namespace {

using nlohmann::json;

struct CirclesBenchOptions {
  std::vector<int> counts = {10, 30, 100, 200, 500, 1000};
  int forests = 5;
  std::string overlap = "both";
  double radius = 0.5;
  int repeat = 3;
  std::uint32_t seed = 1;
  std::string tsv;
  bool json = false;
};

// One mode's figures over the forests of one row: means per query.
struct ModeFigures {
  double time_ms = 0, build_ms = 0, search_ms = 0;
  double nodes = 0, surfing_tests = 0, surfing_edges = 0, hugging_tests = 0, hugging_edges = 0;
  double expanded = 0, circles_built = 0, surfing_culled = 0;
  json to_json() const {
    return {{"time_ms", time_ms},
            {"build_ms", build_ms},
            {"search_ms", search_ms},
            {"nodes", nodes},
            {"surfing_tests", surfing_tests},
            {"surfing_edges", surfing_edges},
            {"surfing_culled", surfing_culled},
            {"hugging_tests", hugging_tests},
            {"hugging_edges", hugging_edges},
            {"expanded", expanded},
            {"circles_built", circles_built}};
  }
};

struct Row {
  int count = 0;
  bool overlap = false;
  int forests = 0, found = 0, mismatches = 0;
  double circles = 0;  // circles actually placed (a crowded forest without overlap holds fewer)
  ModeFigures eager, lazy;
};

// Runs one query `repeat` times and keeps the fastest run's time (the graph figures are the
// same every run).
PlanResult run_query(const CircleForest& f, CircleGraphMode mode, int repeat,
                     CircleGraphStats& st) {
  CirclePlanOptions opt;
  opt.mode = mode;
  PlanResult best;
  for (int i = 0; i < repeat; ++i) {
    CircleGraphStats s;
    PlanResult r = plan_among_circles(f.circles, f.query, opt, {}, &s);
    if (i == 0 || r.time_ms < best.time_ms) {
      best = std::move(r);
      st = s;
    }
  }
  return best;
}

void add(ModeFigures& m, const PlanResult& r, const CircleGraphStats& s, double w) {
  m.time_ms += r.time_ms * w;
  m.build_ms += s.build_ms * w;
  m.search_ms += s.search_ms * w;
  m.nodes += double(s.nodes) * w;
  m.surfing_tests += double(s.surfing_tests) * w;
  m.surfing_edges += double(s.surfing_edges) * w;
  m.surfing_culled += double(s.surfing_culled) * w;
  m.hugging_tests += double(s.hugging_tests) * w;
  m.hugging_edges += double(s.hugging_edges) * w;
  m.expanded += double(r.expanded) * w;
  m.circles_built += double(s.circles_built) * w;
}

int run_circles_bench(const CirclesBenchOptions& o) {
  if (o.counts.empty()) throw InputError("circles-bench: --counts is empty");
  // Eager mode is O(n^2) pairs with a line-of-sight walk each, and keeps a byte per pair: 5000
  // circles take tens of seconds a query, beyond that the command would seem to hang.
  for (int c : o.counts)
    if (c < 0 || c > 5000)
      throw InputError("circles-bench: count " + std::to_string(c) + " is outside [0, 5000]");
  std::vector<bool> overlaps;
  if (o.overlap != "no") overlaps.push_back(true);
  if (o.overlap != "yes") overlaps.push_back(false);
  std::vector<Row> rows;
  for (int count : o.counts) {
    for (bool overlap : overlaps) {
      Row row;
      row.count = count;
      row.overlap = overlap;
      row.forests = o.forests;
      const double w = 1.0 / o.forests;
      for (int k = 0; k < o.forests; ++k) {
        CircleForestSpec spec;
        spec.count = count;
        spec.overlap = overlap;
        spec.seed = o.seed + std::uint32_t(k);
        spec.agent_radius = o.radius;
        const CircleForest f = make_circle_forest(spec);
        row.circles += double(f.circles.size()) * w;
        CircleGraphStats se, sl;
        const PlanResult eager = run_query(f, CircleGraphMode::Eager, o.repeat, se);
        const PlanResult lazy = run_query(f, CircleGraphMode::Lazy, o.repeat, sl);
        add(row.eager, eager, se, w);
        add(row.lazy, lazy, sl, w);
        row.found += lazy.found;
        // The two modes search the same graph: any difference is a bug.
        if (eager.found != lazy.found || (lazy.found && eager.length != lazy.length))
          ++row.mismatches;
      }
      rows.push_back(row);
    }
  }

  int mismatches = 0;
  for (const Row& r : rows) mismatches += r.mismatches;
  auto speedup = [](const Row& r) {
    return r.lazy.time_ms > 0 ? r.eager.time_ms / r.lazy.time_ms : 0.0;
  };
  if (o.json) {
    json arr = json::array();
    for (const Row& r : rows)
      arr.push_back({{"count", r.count},
                     {"circles", r.circles},
                     {"overlap", r.overlap},
                     {"forests", r.forests},
                     {"found", r.found},
                     {"mismatches", r.mismatches},
                     {"eager", r.eager.to_json()},
                     {"lazy", r.lazy.to_json()},
                     {"speedup", speedup(r)}});
    json out;
    out["rows"] = arr;
    out["agent_radius"] = o.radius;
    out["repeat"] = o.repeat;
    out["mismatches"] = mismatches;
    std::cout << out.dump(1) << "\n";
  } else {
    std::printf("%6s %7s %5s | %9s %8s %8s %7s | %8s %7s %7s %7s %6s | %7s\n", "count", "overlap",
                "found", "eager ms", "nodes", "tests", "expand", "lazy ms", "nodes", "tests",
                "expand", "built", "speedup");
    for (const Row& r : rows)
      std::printf(
          "%6d %7s %2d/%-2d | %9.3f %8.0f %8.0f %7.0f | %8.3f %7.0f %7.0f %7.0f %6.1f | %6.1fx\n",
          r.count, r.overlap ? "yes" : "no", r.found, r.forests, r.eager.time_ms, r.eager.nodes,
          r.eager.surfing_tests + r.eager.hugging_tests, r.eager.expanded, r.lazy.time_ms,
          r.lazy.nodes, r.lazy.surfing_tests + r.lazy.hugging_tests, r.lazy.expanded,
          r.lazy.circles_built, speedup(r));
    std::printf(
        "times: mean per query over %d forests (fastest of %d runs each); agent radius %g;"
        " eager/lazy length mismatches: %d\n",
        o.forests, o.repeat, o.radius, mismatches);
  }
  if (!o.tsv.empty()) {
    std::ofstream file;
    if (o.tsv != "-") {
      file.open(o.tsv);
      if (!file) throw InputError(o.tsv + ": cannot write");
    }
    std::ostream& out = o.tsv == "-" ? std::cout : file;
    out << "count\tcircles\toverlap\tforests\tfound\tmismatches\tmode\ttime_ms\tbuild_ms\tsearch_ms"
           "\tnodes\tsurfing_tests\tsurfing_edges\thugging_tests\thugging_edges\texpanded"
           "\tcircles_built\n";
    for (const Row& r : rows)
      for (const auto& [mode, m] : {std::pair{"eager", &r.eager}, std::pair{"lazy", &r.lazy}})
        out << r.count << '\t' << r.circles << '\t' << (r.overlap ? "yes" : "no") << '\t'
            << r.forests << '\t' << r.found << '\t' << r.mismatches << '\t' << mode << '\t'
            << m->time_ms << '\t' << m->build_ms << '\t' << m->search_ms << '\t' << m->nodes << '\t'
            << m->surfing_tests << '\t' << m->surfing_edges << '\t' << m->hugging_tests << '\t'
            << m->hugging_edges << '\t' << m->expanded << '\t' << m->circles_built << '\n';
  }
  return mismatches ? kFailed : kOk;
}

}  // namespace

void add_circles_commands(CLI::App& app, std::vector<Command>& out) {
  auto o = std::make_shared<CirclesBenchOptions>();
  auto* c = app.add_subcommand(
      "circles-bench",
      "Time the circles planner's eager and lazy graph modes on seeded random forests");
  c->add_option("--counts", o->counts, "Circle counts, comma separated")
      ->delimiter(',')
      ->capture_default_str();
  c->add_option("--forests", o->forests, "Random forests (and queries) per count")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  c->add_option("--overlap", o->overlap, "Forests whose circles overlap: yes, no or both")
      ->check(CLI::IsMember({"yes", "no", "both"}))
      ->capture_default_str();
  c->add_option("--radius", o->radius, "Agent radius (map units)")
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  c->add_option("--repeat", o->repeat, "Runs per query; the fastest counts")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  c->add_option("--seed", o->seed, "First forest's seed")->capture_default_str();
  c->add_option("--tsv", o->tsv, "Also write one TSV row per count, overlap and mode (- = stdout)");
  c->add_flag("--json", o->json, "Machine-readable output");
  out.push_back({c, [o] { return run_circles_bench(*o); }});
}

}  // namespace pl::cli
