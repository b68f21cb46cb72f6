// `pathlab-cli scen-gen MAP --count N --seed S [--out FILE]`: a MovingAI scenario of N random
// problems on a map, so that measurements on maps without a published scenario (the bg maps of
// the HAA* comparison) can be repeated from one command.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>

#include "cli/cli.hpp"
#include "core/error.hpp"
#include "core/io.hpp"
#include "core/placement.hpp"

namespace pl::cli {

namespace {

struct ScenGenOptions {
  std::string map, out;
  long count = 0;
  std::uint32_t seed = 1;
};

// A uniform index below n from one 32-bit draw (multiply-shift), so a seed gives the same file
// with every standard library (std::uniform_int_distribution's algorithm is not specified).
std::uint32_t draw(std::mt19937& rng, std::size_t n) {
  return std::uint32_t((std::uint64_t(rng()) * std::uint64_t(n)) >> 32);
}

int cmd_scen_gen(const ScenGenOptions& o) {
  Scene scene;
  scene.map = load_map(o.map);
  const GridMap& map = scene.map;
  const CapabilityMask cap = map.palette().movingai_default_capability();
  // Without corner cutting a diagonal move needs both side cells free, so the 4-connected
  // region's cells are exactly those reachable from one another by octile moves.
  const std::vector<std::uint32_t> cells = largest_region_cells(map, cap);
  if (cells.size() < 2)
    throw InputError(o.map, 0,
                     "no two connected cells the default capability may enter: no problem to make");
  auto astar = Registry::builtin().create("astar", {});
  const int w = map.width();
  Scenario scen;
  const std::string name = std::filesystem::path(o.map).filename().string();
  std::mt19937 rng(o.seed);
  for (long i = 0; i < o.count; ++i) {
    const std::uint32_t s = cells[draw(rng, cells.size())];
    std::uint32_t g = s;
    while (g == s) g = cells[draw(rng, cells.size())];
    Query q;
    q.start = {int(s) % w + 0.5, int(s) / w + 0.5, 0};
    q.goal = {int(g) % w + 0.5, int(g) / w + 0.5, 0};
    q.capability = cap;
    const PlanResult r = astar->plan(scene, q);
    // Both ends lie in one region, so A* must find a path; if not, the file would be wrong.
    if (!r.found) throw std::logic_error("scen-gen: A* found no path inside one region");
    ScenProblem p;
    p.map_path = name;
    p.map_width = map.width();
    p.map_height = map.height();
    p.start_x = int(s) % w;
    p.start_y = int(s) / w;
    p.goal_x = int(g) % w;
    p.goal_y = int(g) / w;
    p.optimal = r.length;
    // MovingAI's buckets: optimal lengths [4b, 4b + 4).
    p.bucket = int(r.length / 4);
    scen.problems.push_back(p);
  }
  // Ordered by bucket as MovingAI's files are; draw order within one.
  std::stable_sort(scen.problems.begin(), scen.problems.end(),
                   [](const ScenProblem& a, const ScenProblem& b) { return a.bucket < b.bucket; });
  if (o.out.empty()) {
    std::fputs(format_scen(scen).c_str(), stdout);
  } else {
    save_scen(scen, o.out);
    std::fprintf(stderr, "%s: %zu problems, %zu cells in the largest region\n", o.out.c_str(),
                 scen.problems.size(), cells.size());
  }
  return kOk;
}

}  // namespace

void add_scen_gen_commands(CLI::App& app, std::vector<Command>& out) {
  auto o = std::make_shared<ScenGenOptions>();
  auto* sub = app.add_subcommand(
      "scen-gen",
      "Write a MovingAI scenario of random problems on a map: both ends in its largest connected "
      "region for the default capability, optimal lengths from A*, bucketed by length");
  sub->add_option("map", o->map, "Map file (.map)")->required();
  sub->add_option("--count", o->count, "Number of problems")
      ->required()
      ->check(CLI::Range(1L, 10000000L));
  sub->add_option("--seed", o->seed, "Seed: the same seed gives the same file");
  sub->add_option("--out", o->out, "Write the scenario to this file (default: standard output)");
  out.push_back({sub, [o] { return cmd_scen_gen(*o); }});
}

}  // namespace pl::cli
