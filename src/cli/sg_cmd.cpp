// Subgoal-graph commands of pathlab-cli (issue 12):
//   sg-experiment MAPDIR...   the experiment of Uras & Koenig (AAAI 2015), Table 1: for each map
//                             type and algorithm, the average runtime (search and post-smoothing,
//                             Daniel et al. 2010 Algorithm 2; preprocessing excluded, as in the
//                             paper) and the average smoothed path length, ours beside the paper's.
//
// Problems: every problem of each map's MovingAI scenario file (start and goal: the top-left
// corners of the scenario's cells, as the corner planners take them); maps without a scenario
// file get --problems random pairs of open cells (seeded) that A* on the grid connects.
// `--shard i/n` keeps problems whose running index is i mod n, so a job array can split the run
// (each shard writes its own CSV; the rows carry everything needed to merge them).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <span>

#include "cli/cli.hpp"
#include "core/error.hpp"
#include "core/io.hpp"
#include "core/line_of_sight.hpp"
#include "core/smoothing.hpp"

namespace pl::cli {

namespace {

namespace fs = std::filesystem;

struct SgOptions {
  std::vector<std::string> dirs;
  std::string csv;
  std::string shard = "0/1";
  long limit = 0;      // problems per map, 0 = all
  long every = 1;      // every k-th problem of a scenario file
  int problems = 50;   // per map without a scenario file
  unsigned seed = 1;
  bool quiet = false;
};

// One column of Table 1.
struct Algo {
  std::string column;   // "A* Grid", "Theta* S_N", ...
  std::string planner;
  std::map<std::string, std::string> sets;
};

// The paper's Table 1 (runtime ms, then smoothed length) in the column order of kColumns.
constexpr int kColumns = 9;
const char* const kColumnNames[kColumns] = {"A* Grid",     "A* S_1",     "A* S_2",
                                            "A* S_N",      "Theta* Grid", "Theta* S_1",
                                            "Theta* S_2",  "Theta* S_N", "Block A*"};
struct PaperRow {
  const char* type;
  double ms[kColumns];
  double len[kColumns];
};
// Uras & Koenig 2015, Table 1, the rows whose map types ../shared/data has. The length columns
// are printed in the paper's order (A* Grid, S_1, S_2, S_N, Theta* Grid, S_1, S_2, S_N, Block).
const PaperRow kPaper[] = {
    {"bg512", {11.52, 0.16, 0.11, 0.09, 22.69, 0.42, 0.24, 0.16, 4.51},
     {238.64, 237.66, 237.52, 237.52, 237.27, 237.29, 237.29, 237.36, 237.23}},
    {"DAO", {18.18, 0.88, 0.48, 0.26, 36.01, 1.95, 0.93, 0.45, 7.21},
     {397.71, 393.64, 393.38, 393.55, 393.11, 392.94, 392.93, 393.31, 393.04}},
    {"starcraft", {75.68, 2.49, 1.38, 0.70, 190.23, 9.09, 4.29, 1.35, 29.75},
     {551.12, 546.71, 546.12, 545.73, 545.06, 544.93, 544.88, 545.12, 544.88}},
    {"random10", {19.67, 7.93, 7.92, 7.93, 11.22, 4.82, 4.81, 4.81, 6.34},
     {325.10, 320.82, 320.82, 320.82, 319.00, 319.09, 319.09, 319.09, 319.03}},
    {"room8", {44.02, 3.67, 3.24, 2.97, 55.95, 4.29, 3.71, 3.36, 18.03},
     {353.61, 348.37, 348.58, 348.76, 348.62, 348.25, 348.43, 348.63, 348.36}},
    {"room32", {53.95, 0.31, 0.28, 0.25, 83.68, 0.47, 0.40, 0.36, 21.23},
     {369.46, 365.95, 366.01, 366.05, 366.07, 365.93, 365.99, 366.04, 366.05}},
    {"maze4", {149.28, 3.14, 1.85, 0.21, 207.87, 3.66, 2.02, 0.18, 60.22},
     {1771.55, 1759.78, 1759.61, 1759.60, 1759.33, 1759.43, 1759.53, 1759.59, 1760.28}},
    {"GAME", {42.09, 1.44, 0.80, 0.42, 101.09, 4.78, 2.26, 0.79, 16.57},
     {432.31, 428.72, 428.34, 428.23, 427.73, 427.62, 427.59, 427.85, 427.62}},
    {"ALL", {79.18, 2.96, 2.34, 1.90, 149.61, 4.25, 2.76, 1.79, 30.03},
     {811.15, 805.76, 805.48, 805.36, 804.62, 804.69, 804.71, 804.85, 804.74}},
};

std::vector<Algo> algorithms() {
  std::vector<Algo> a = {
      {"A* Grid", "corner-astar", {}},
      {"A* S_1", "subgoal", {{"levels", "1"}, {"anyangle", "true"}}},
      {"A* S_2", "subgoal", {{"levels", "2"}, {"anyangle", "true"}}},
      {"A* S_N", "subgoal", {{"levels", "n"}, {"anyangle", "true"}}},
      {"Theta* Grid", "theta", {}},
      {"Theta* S_1", "subgoal", {{"levels", "1"}, {"search", "theta"}}},
      {"Theta* S_2", "subgoal", {{"levels", "2"}, {"search", "theta"}}},
      {"Theta* S_N", "subgoal", {{"levels", "n"}, {"search", "theta"}}},
  };
  // Block A* joins the table when the registry has it.
  if (Registry::builtin().find("block-astar")) a.push_back({"Block A*", "block-astar", {}});
  return a;
}

// The paper's map type of a map, from its folder and name.
std::string map_type(const fs::path& map) {
  const std::string dir = map.parent_path().filename().string(), name = map.stem().string();
  if (dir == "bg") return "bg512";
  if (dir == "dao") return "DAO";
  if (dir == "sc") return "starcraft";
  auto number_after = [&](const std::string& prefix) {
    const auto p = name.find(prefix);
    if (p == std::string::npos) return std::string();
    std::string digits;
    for (std::size_t i = p + prefix.size(); i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])); ++i)
      digits += name[i];
    return digits;
  };
  if (name.rfind("random512-", 0) == 0) return "random" + number_after("random512-");
  if (name.rfind("maze512-", 0) == 0) return "maze" + number_after("maze512-");
  if (name.find("room") != std::string::npos) {
    std::string digits;
    for (char c : name) {
      if (!std::isdigit(static_cast<unsigned char>(c))) break;
      digits += c;
    }
    return "room" + digits;
  }
  return dir;
}

bool game_type(const std::string& t) { return t == "bg512" || t == "DAO" || t == "starcraft"; }

struct Cell {
  double ms = 0, len = 0, n = 0;
};

int cmd_sg_experiment(const SgOptions& o) {
  long shard_i = 0, shard_n = 1;
  {
    const auto slash = o.shard.find('/');
    char* e1 = nullptr;
    char* e2 = nullptr;
    if (slash != std::string::npos) {
      shard_i = std::strtol(o.shard.substr(0, slash).c_str(), &e1, 10);
      shard_n = std::strtol(o.shard.substr(slash + 1).c_str(), &e2, 10);
    }
    if (slash == std::string::npos || *e1 || *e2 || shard_n < 1 || shard_i < 0 || shard_i >= shard_n)
      throw InputError("--shard: '" + o.shard + "' is not i/n with 0 <= i < n");
  }
  if (o.every < 1) throw InputError("--every: must be at least 1");
  // The maps: every .map in the folders given, sorted.
  std::vector<fs::path> maps;
  for (const std::string& d : o.dirs) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) throw InputError(d + ": not a folder");
    for (auto& e : fs::recursive_directory_iterator(d, ec))
      if (e.path().extension() == ".map") maps.push_back(e.path());
  }
  std::sort(maps.begin(), maps.end());
  if (maps.empty()) throw InputError("no .map files in the folders given");

  const std::vector<Algo> algos = algorithms();
  std::vector<std::unique_ptr<Planner>> planners;
  for (const Algo& a : algos) planners.push_back(Registry::builtin().create(a.planner, a.sets));

  std::ofstream csv;
  if (!o.csv.empty()) {
    csv.open(o.csv);
    if (!csv) throw InputError(o.csv + ": cannot write");
    csv << "map,type,problem,algorithm,planner,sx,sy,gx,gy,found,time_ms,search_ms,smooth_ms,"
           "length,smoothed_length,expanded\n";
  }

  // The problems of every map (loaded one map at a time below): count first, for the bar.
  struct MapJob {
    fs::path map;
    std::string scen;  // empty: random problems
  };
  std::vector<MapJob> jobs;
  for (const fs::path& m : maps) {
    const fs::path scen = fs::path(m.string() + ".scen");
    std::error_code ec;
    jobs.push_back({m, fs::exists(scen, ec) ? scen.string() : std::string()});
  }
  std::map<std::string, std::vector<Cell>> sums;  // type -> per algorithm
  std::size_t index = 0, done = 0, skipped = 0;
  const bool bar = !o.quiet;
  for (std::size_t mi = 0; mi < jobs.size(); ++mi) {
    const MapJob& job = jobs[mi];
    Scene scene;
    scene.map = load_map(job.map.string());
    const std::string type = map_type(job.map);
    struct P {
      int sx, sy, gx, gy;
    };
    std::vector<P> probs;
    if (!job.scen.empty()) {
      const Scenario scen = load_scen(job.scen);
      check_scen_against_map(scen, scene.map, job.scen);
      for (std::size_t i = 0; i < scen.problems.size(); i += std::size_t(o.every)) {
        const ScenProblem& p = scen.problems[i];
        probs.push_back({p.start_x, p.start_y, p.goal_x, p.goal_y});
        if (o.limit > 0 && long(probs.size()) >= o.limit) break;
      }
    } else {
      std::mt19937 rng(o.seed + unsigned(mi));
      const CapabilityMask cap = scene.map.palette().movingai_default_capability();
      const int w = scene.map.width(), h = scene.map.height();
      auto grid = Registry::builtin().create("subgoal");  // optimal on the grid: connectivity
      const long want = o.limit > 0 ? std::min<long>(o.limit, o.problems) : o.problems;
      for (int tries = 0; long(probs.size()) < want && tries < 50 * o.problems; ++tries) {
        const int sx = int(rng() % unsigned(w)), sy = int(rng() % unsigned(h));
        const int gx = int(rng() % unsigned(w)), gy = int(rng() % unsigned(h));
        if (!scene.map.passable(sx, sy, cap) || !scene.map.passable(gx, gy, cap) || (sx == gx && sy == gy)) continue;
        Query q;
        q.start = {sx + 0.5, sy + 0.5, 0};
        q.goal = {gx + 0.5, gy + 0.5, 0};
        if (grid->plan(scene, q).found) probs.push_back({sx, sy, gx, gy});
      }
    }
    const CornerGrid cg(scene.map, 0);
    auto& row = sums[type];
    row.resize(algos.size());
    for (std::size_t pi = 0; pi < probs.size(); ++pi, ++index) {
      if (long(index % std::size_t(shard_n)) != shard_i) continue;
      const P& p = probs[pi];
      Query q;
      q.start = {double(p.sx), double(p.sy), 0};
      q.goal = {double(p.gx), double(p.gy), 0};
      for (std::size_t ai = 0; ai < algos.size(); ++ai) {
        const PlanResult r = planners[ai]->plan(scene, q);
        if (!r.found) {
          ++skipped;
          if (csv)
            csv << job.map.filename().string() << ',' << type << ',' << pi << ',' << algos[ai].column << ','
                << algos[ai].planner << ',' << p.sx << ',' << p.sy << ',' << p.gx << ',' << p.gy
                << ",0,,,,,,\n";
          continue;
        }
        // Post-smoothing (Daniel et al. 2010, Algorithm 2) on the path's corners, timed with it.
        std::vector<Vec2> pts;
        for (const PathPiece& pc : r.pieces) {
          if (pts.empty()) pts.push_back(pc.line.a);
          pts.push_back(pc.line.b);
        }
        const Stopwatch sw;
        const std::vector<Vec2> sm = greedy_smooth(std::span<const Vec2>(pts), [&](const Vec2& a, const Vec2& b) {
          return cg.visible(int(a.x), int(a.y), int(b.x), int(b.y));
        });
        const double smooth_ms = sw.ms();
        double len = 0;
        for (std::size_t k = 1; k < sm.size(); ++k) len += std::hypot(sm[k].x - sm[k - 1].x, sm[k].y - sm[k - 1].y);
        const double search_ms = r.time_ms - r.prepare_ms;
        Cell& c = row[ai];
        c.ms += search_ms + smooth_ms;
        c.len += len;
        c.n += 1;
        if (csv)
          csv << job.map.filename().string() << ',' << type << ',' << pi << ',' << algos[ai].column << ','
              << algos[ai].planner << ',' << p.sx << ',' << p.sy << ',' << p.gx << ',' << p.gy << ",1,"
              << search_ms + smooth_ms << ',' << search_ms << ',' << smooth_ms << ',' << r.length << ','
              << len << ',' << r.expanded << '\n';
      }
      ++done;
      if (bar && done % 4 == 1) {
        const double frac = (double(mi) + double(pi + 1) / double(std::max<std::size_t>(probs.size(), 1))) /
                            double(jobs.size());
        const int width = 30, filled = int(std::clamp(frac, 0.0, 1.0) * width);
        std::fprintf(stderr, "\r[%s%s] %3d%% %-40.40s", std::string(std::size_t(filled), '#').c_str(),
                     std::string(std::size_t(width - filled), ' ').c_str(), int(frac * 100),
                     (job.map.filename().string() + " " + std::to_string(pi + 1) + "/" +
                      std::to_string(probs.size()))
                         .c_str());
        std::fflush(stderr);
      }
    }
  }
  if (bar) std::fprintf(stderr, "\r%-90s\r", "");

  // Aggregates: GAME (bg512, DAO, starcraft) and ALL, averaged over problems as in the paper.
  std::vector<Cell> game(algos.size()), all(algos.size());
  for (auto& [type, row] : sums)
    for (std::size_t ai = 0; ai < row.size(); ++ai) {
      for (auto* agg : {&all, game_type(type) ? &game : nullptr}) {
        if (!agg) continue;
        (*agg)[ai].ms += row[ai].ms;
        (*agg)[ai].len += row[ai].len;
        (*agg)[ai].n += row[ai].n;
      }
    }
  std::vector<std::pair<std::string, std::vector<Cell>>> rows(sums.begin(), sums.end());
  rows.push_back({"GAME", game});
  rows.push_back({"ALL", all});

  auto paper_of = [](const std::string& type) -> const PaperRow* {
    for (const PaperRow& r : kPaper)
      if (type == r.type) return &r;
    return nullptr;
  };
  auto col_of = [](const std::string& name) {
    for (int i = 0; i < kColumns; ++i)
      if (name == kColumnNames[i]) return i;
    return -1;
  };
  std::printf("sg-experiment: %zu problems (shard %ld/%ld), %zu runs without a path\n", done, shard_i,
              shard_n, skipped);
  // A table: a row per map type, a column per algorithm, each cell our mean of `sum` per run
  // (printed with `decimals`) and the paper's figure from `paper` beside it.
  auto table = [&](const char* title, int decimals, auto sum, auto paper) {
    std::printf("%s\n", title);
    std::printf("%-10s", "type");
    for (const Algo& a : algos) std::printf(" %19s", a.column.c_str());
    std::printf("\n");
    for (const auto& [type, row] : rows) {
      const PaperRow* pr = paper_of(type);
      std::printf("%-10s", type.c_str());
      for (std::size_t ai = 0; ai < algos.size(); ++ai) {
        const int pc = col_of(algos[ai].column);
        char buf[64];
        const double ours = row[ai].n > 0 ? sum(row[ai]) / row[ai].n : 0;
        if (pr && pc >= 0)
          std::snprintf(buf, sizeof buf, "%.*f (%.2f)", decimals, ours, paper(*pr)[pc]);
        else
          std::snprintf(buf, sizeof buf, "%.*f (-)", decimals, ours);
        std::printf(" %19s", buf);
      }
      std::printf("\n");
    }
  };
  table("Runtime including post-smoothing, ms per query: ours (paper)", 3, [](const auto& c) { return c.ms; },
        [](const PaperRow& p) { return p.ms; });
  table("Smoothed path length: ours (paper; different problem sets per type, compare within a row)", 2,
        [](const auto& c) { return c.len; }, [](const PaperRow& p) { return p.len; });
  return done > 0 ? kOk : kFailed;
}

}  // namespace

void add_subgoal_commands(CLI::App& app, std::vector<Command>& out) {
  auto o = std::make_shared<SgOptions>();
  auto* ex = app.add_subcommand(
      "sg-experiment",
      "Uras & Koenig 2015, Table 1: A* and Theta* on grids and on subgoal graphs S_1, S_2, S_N "
      "(runtime with post-smoothing, smoothed length) per map type, beside the paper's figures");
  ex->add_option("mapdirs", o->dirs, "Folders of .map files (and their .map.scen), e.g. ../shared/data")
      ->required();
  ex->add_option("--csv", o->csv, "Write one row per query and algorithm to this CSV file");
  ex->add_option("--shard", o->shard, "Run only problems i, i+n, i+2n, ... of the whole run (i/n)");
  ex->add_option("--limit", o->limit, "At most this many problems per map (0 = all)");
  ex->add_option("--every", o->every, "Every k-th problem of a scenario file");
  ex->add_option("--problems", o->problems, "Random problems per map without a scenario file");
  ex->add_option("--seed", o->seed, "Seed for the random problems");
  ex->add_flag("--quiet", o->quiet, "No progress bar");
  out.push_back({ex, [o] { return cmd_sg_experiment(*o); }});
}

}  // namespace pl::cli
