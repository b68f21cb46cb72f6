// HAA* commands of pathlab-cli (issue 4):
//   abstraction MAP      size of an HAA* abstraction against the grid graph, and its build time;
//   haa-experiment DIR   the paper's experiment (Harabor & Botea 2008, section IX): soft
//                        obstacles added to every map, random problems with a random capability
//                        for agent sizes 1 and 2, Table I (graph sizes), Fig. 5 (path-length
//                        error against Annotated A*) and Fig. 6 (search effort per phase).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "cli/cli.hpp"
#include "core/error.hpp"
#include "core/io.hpp"
#include "planners/grid_search.hpp"
#include "planners/haa.hpp"

namespace pl::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

std::vector<int> parse_ints(const std::string& text, const char* option, int lo, int hi) {
  std::vector<int> out;
  for (const std::string& item : split(text)) {
    char* stop = nullptr;
    const long v = std::strtol(item.c_str(), &stop, 10);
    if (item.empty() || *stop != '\0' || v < lo || v > hi)
      throw InputError(std::string("--") + option + ": '" + text +
                       "' is not a list of integers in " + std::to_string(lo) + ".." +
                       std::to_string(hi));
    out.push_back(int(v));
  }
  return out;
}

HaaQuality parse_quality(const std::string& s) {
  if (s == "initial") return HaaQuality::Initial;
  if (s == "hq") return HaaQuality::High;
  if (s == "lq") return HaaQuality::Low;
  throw InputError("--quality: '" + s + "' is not one of initial|hq|lq");
}

HaaPlacement parse_placement(const std::string& s) {
  if (s == "paper") return HaaPlacement::Paper;
  if (s == "middle") return HaaPlacement::Middle;
  if (s == "spread") return HaaPlacement::Spread;
  throw InputError("--transitions: '" + s + "' is not one of paper|middle|spread");
}

GridMap load_grid(const std::string& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) throw InputError(file + ": no such file");
  if (fs::path(file).extension() == ".json") return load_scene(file).map;
  if (fs::path(file).extension() == ".png") return load_png(file);
  return load_map(file);
}

// The paper's soft obstacles: each ground cell becomes swamp (a second passable terrain) with
// probability `percent` / 100.
void add_soft_obstacles(GridMap& map, int percent, std::uint32_t seed) {
  if (percent <= 0) return;
  const TerrainId ground = map.palette().default_ground();
  const auto swamp = map.palette().find_name("swamp");
  if (!swamp) throw InputError("the map's palette has no 'swamp' terrain for soft obstacles");
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pct(0, 99);
  std::vector<TerrainId> cells = map.cells();
  for (TerrainId& c : cells)
    if (c == ground && pct(rng) < percent) c = *swamp;
  map.assign(std::move(cells));
}

// MovingAI's reading of a map: terrains outside {ground, swamp} (trees, water) are obstacles.
// The paper's maps have one passable terrain before soft obstacles are added.
void block_non_movingai(GridMap& map) {
  const CapabilityMask keep = map.palette().movingai_default_capability();
  const TerrainId wall = map.palette().default_obstacle();
  std::vector<TerrainId> cells = map.cells();
  for (TerrainId& c : cells)
    if (!(keep >> c & 1u)) c = wall;
  map.assign(std::move(cells));
}

class ProgressBar {
 public:
  explicit ProgressBar(bool on) : on_(on) {}
  void show(double fraction, const std::string& what) {
    if (!on_) return;
    const int width = 30, filled = int(std::clamp(fraction, 0.0, 1.0) * width);
    std::fprintf(stderr, "\r[%s%s] %3d%% %-40.40s", std::string(std::size_t(filled), '#').c_str(),
                 std::string(std::size_t(width - filled), ' ').c_str(), int(fraction * 100),
                 what.c_str());
    std::fflush(stderr);
  }
  void done() {
    if (on_) std::fprintf(stderr, "\r%-90s\r", "");
  }

 private:
  bool on_;
};

// Builds on a worker thread while the main thread draws the build's own progress.
bool build_with_progress(HaaAbstraction& a, const GridMap& map, const HaaParams& p,
                         ProgressBar& bar, const std::string& what) {
  std::atomic<float> progress{0};
  std::atomic<bool> done{false};
  bool ok = false;
  RunContext ctx;
  ctx.progress = &progress;
  std::thread worker([&] {
    ok = a.build(map, p, ctx);
    done = true;
  });
  while (!done) {
    bar.show(progress.load(), what);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  worker.join();
  return ok;
}

// ---------------------------------------------------------------------------------------------
struct AbstractionOptions {
  std::string file;
  int cluster_size = 10;
  std::string quality = "hq", sizes = "1,2", transitions = "middle";
  int soft = 0;
  unsigned seed = 1;
  bool movingai = false;
  bool json_out = false;
};

int cmd_abstraction(const AbstractionOptions& o) {
  GridMap map = load_grid(o.file);
  if (o.soft < 0 || o.soft > 100) throw InputError("--soft: must be a percentage 0..100");
  if (o.movingai) block_non_movingai(map);
  add_soft_obstacles(map, o.soft, o.seed);
  HaaParams p;
  p.cluster_size = o.cluster_size;
  p.quality = parse_quality(o.quality);
  p.placement = parse_placement(o.transitions);
  p.sizes = parse_haa_sizes(o.sizes);
  HaaAbstraction a;
  ProgressBar bar(!o.json_out);
  build_with_progress(a, map, p, bar, "building " + fs::path(o.file).filename().string());
  bar.done();
  const HaaBuildStats& s = a.stats();
  if (o.json_out) {
    json j;
    j["map"] = o.file;
    j["width"] = map.width();
    j["height"] = map.height();
    j["cluster_size"] = p.cluster_size;
    j["quality"] = haa_quality_name(p.quality);
    j["transitions"] = haa_placement_name(p.placement);
    j["sizes"] = p.sizes;
    j["capabilities"] = a.capabilities().size();
    j["clusters"] = s.clusters;
    j["entrances"] = s.entrances;
    j["transition_points"] = s.transitions;
    j["nodes"] = s.nodes;
    j["edges"] = s.edges;
    j["inter_edges"] = s.inter_edges;
    j["intra_edges"] = s.intra_edges;
    j["base_nodes"] = s.base_nodes;
    j["base_edges"] = s.base_edges;
    j["node_percent"] = s.node_percent();
    j["edge_percent"] = s.edge_percent();
    j["removed_strong"] = s.removed_strong;
    j["removed_weak"] = s.removed_weak;
    j["removed_nodes"] = s.removed_nodes;
    j["intra_searches"] = s.searches;
    j["intra_expanded"] = s.expanded;
    j["build_ms"] = s.build_ms;
    j["memory_bytes"] = a.memory_bytes();
    std::cout << j.dump(1) << "\n";
  } else {
    std::printf("%s: %dx%d, clusters of %d (%zu), %s, transitions %s, %zu capabilities, sizes %s\n",
                o.file.c_str(), map.width(), map.height(), p.cluster_size, s.clusters,
                haa_quality_name(p.quality), haa_placement_name(p.placement),
                a.capabilities().size(), o.sizes.c_str());
    std::printf("  nodes %zu of %zu (%.2f%%), edges %zu of %zu (%.2f%%): %zu inter, %zu intra\n",
                s.nodes, s.base_nodes, s.node_percent(), s.edges, s.base_edges, s.edge_percent(),
                s.inter_edges, s.intra_edges);
    std::printf(
        "  %zu entrances, %zu transitions; removed %zu strongly, %zu weakly dominated edges, %zu "
        "nodes\n",
        s.entrances, s.transitions, s.removed_strong, s.removed_weak, s.removed_nodes);
    std::printf("  build %.1f ms (%llu intra searches, %llu expansions), %.1f MiB\n", s.build_ms,
                (unsigned long long)s.searches, (unsigned long long)s.expanded,
                double(a.memory_bytes()) / (1 << 20));
  }
  return kOk;
}

// ---------------------------------------------------------------------------------------------
struct ExperimentOptions {
  std::string dir;
  std::string soft = "0,10,20,30,40,50", cluster_sizes = "10,15,20", qualities = "hq,lq",
              transitions = "paper,middle";
  int problems = 100;
  int max_maps = 0;
  unsigned seed = 1;
  std::string csv;
  std::string insertion = "auto";
  bool smoothing = false;
  bool quiet = false;
};

struct Problem {
  int sx, sy, gx, gy;
  CapabilityMask cap;
  double opt[2];            // Annotated A* lengths, sizes 1 and 2
  std::uint64_t aa_exp[2];  // and expansions
};

struct Sum {
  double n = 0, err = 0, ins = 0, abs = 0, ref = 0, aa = 0;
  double nodes_pct = 0, edges_pct = 0, maps = 0;
  void add_query(double e, double i, double a, double r, double x) {
    n += 1;
    err += e;
    ins += i;
    abs += a;
    ref += r;
    aa += x;
  }
};

int cmd_experiment(const ExperimentOptions& o) {
  std::error_code ec;
  if (!fs::is_directory(o.dir, ec)) throw InputError(o.dir + ": not a folder");
  std::vector<std::string> maps;
  for (auto& e : fs::directory_iterator(o.dir, ec))
    if (e.path().extension() == ".map") maps.push_back(e.path().string());
  std::sort(maps.begin(), maps.end());
  if (maps.empty()) throw InputError(o.dir + ": no .map files in this folder");
  if (o.max_maps > 0 && std::size_t(o.max_maps) < maps.size()) {
    // An even sample over the sorted list, so a short run still spans the whole set.
    std::vector<std::string> sample;
    for (int i = 0; i < o.max_maps; ++i)
      sample.push_back(maps[std::size_t(i) * maps.size() / std::size_t(o.max_maps)]);
    maps = sample;
  }
  const auto softs = parse_ints(o.soft, "soft", 0, 100);
  const auto css = parse_ints(o.cluster_sizes, "cluster-sizes", 2, 256);
  if (o.problems < 1) throw InputError("--problems: must be at least 1");
  std::vector<HaaQuality> quals;
  for (auto& q : split(o.qualities)) quals.push_back(parse_quality(q));
  std::vector<HaaPlacement> places;
  for (auto& t : split(o.transitions)) places.push_back(parse_placement(t));
  std::ofstream csv;
  if (!o.csv.empty()) {
    csv.open(o.csv);
    if (!csv) throw InputError(o.csv + ": cannot write");
    csv << "map,soft,cluster_size,quality,transitions,size,capability,sx,sy,gx,gy,optimal,haa_"
           "length,"
           "error_percent,aa_expanded,insertion_expanded,abstract_expanded,refinement_expanded,"
           "abstract_nodes,abstract_edges,base_nodes,base_edges,build_ms\n";
  }
  ProgressBar bar(!o.quiet);
  const double total_steps = double(maps.size() * softs.size());
  double step = 0;
  // Sums keyed by (cluster size, quality, placement, soft); size-split error at every key too.
  using Key = std::tuple<int, int, int, int>;
  std::map<Key, Sum> sums;
  std::map<std::tuple<int, int, int, int, int>, Sum> by_size;  // key + agent size
  // Fig. 6: effort by optimal path length bucket (20 wide) per (cluster size, quality, placement).
  std::map<std::tuple<int, int, int, int>, Sum> by_length;
  GridSearch aa;
  GridSearch::Options aopt;
  aopt.annotated = true;
  std::size_t incomplete = 0;
  for (std::size_t mi = 0; mi < maps.size(); ++mi) {
    GridMap base = load_map(maps[mi]);
    block_non_movingai(base);
    const std::string name = fs::path(maps[mi]).filename().string();
    for (int soft : softs) {
      bar.show(step / total_steps, name + " soft " + std::to_string(soft) + "%");
      step += 1;
      GridMap map = base;
      add_soft_obstacles(map, soft,
                         o.seed * 7919u + std::uint32_t(mi) * 131u + std::uint32_t(soft));
      const auto caps = haa_default_capabilities(map);
      // Valid problems: both sizes can stand at start and goal and Annotated A* connects them
      // for size 2 (then also for size 1).
      std::mt19937 rng(o.seed * 104729u + std::uint32_t(mi) * 1009u + std::uint32_t(soft));
      std::vector<Problem> probs;
      std::map<CapabilityMask, ClearanceGrid> cls;
      for (CapabilityMask c : caps) cls[c] = true_clearance(map, c);
      const int w = map.width(), h = map.height();
      for (int tries = 0; int(probs.size()) < o.problems && tries < o.problems * 200 + 1000;
           ++tries) {
        Problem p{};
        p.cap = caps[rng() % caps.size()];
        const ClearanceGrid& cl = cls[p.cap];
        p.sx = int(rng() % unsigned(w));
        p.sy = int(rng() % unsigned(h));
        p.gx = int(rng() % unsigned(w));
        p.gy = int(rng() % unsigned(h));
        if (cl[std::size_t(p.sy * w + p.sx)] < 2 || cl[std::size_t(p.gy * w + p.gx)] < 2) continue;
        if (p.sx == p.gx && p.sy == p.gy) continue;
        bool ok = true;
        for (int s = 1; s <= 2 && ok; ++s) {
          Query q;
          q.start = {p.sx + 0.5, p.sy + 0.5, 0};
          q.goal = {p.gx + 0.5, p.gy + 0.5, 0};
          q.capability = p.cap;
          q.size = s;
          const PlanResult r = aa.run(map, q, aopt, {});
          ok = r.found;
          p.opt[s - 1] = r.length;
          p.aa_exp[s - 1] = r.expanded;
        }
        if (ok) probs.push_back(p);
      }
      Scene scene;
      scene.map = map;
      for (int cs : css)
        for (HaaQuality ql : quals)
          for (HaaPlacement pl : places) {
            HaaParams hp;
            hp.cluster_size = cs;
            hp.quality = ql;
            hp.placement = pl;
            hp.sizes = {1, 2};
            HaaQueryOptions qo;
            qo.smoothing = o.smoothing;
            qo.insertion = o.insertion == "dijkstra" ? HaaQueryOptions::Insertion::Dijkstra
                           : o.insertion == "astar"  ? HaaQueryOptions::Insertion::AStar
                           : o.insertion == "cached" ? HaaQueryOptions::Insertion::Cached
                                                     : HaaQueryOptions::Insertion::Auto;
            HaaPlanner planner(hp, qo);
            const HaaAbstraction* a = planner.abstraction(map);
            const HaaBuildStats& bs = a->stats();
            const Key key{cs, int(ql), int(pl), soft};
            Sum& sum = sums[key];
            sum.nodes_pct += bs.node_percent();
            sum.edges_pct += bs.edge_percent();
            sum.maps += 1;
            for (const Problem& p : probs)
              for (int s = 1; s <= 2; ++s) {
                Query q;
                q.start = {p.sx + 0.5, p.sy + 0.5, 0};
                q.goal = {p.gx + 0.5, p.gy + 0.5, 0};
                q.capability = p.cap;
                q.size = s;
                const PlanResult r = planner.plan(scene, q);
                if (!r.found) {  // would be a completeness bug: report it and fail at the end
                  ++incomplete;
                  std::fprintf(
                      stderr,
                      "\nHAA* found no path where Annotated A* did: %s soft %d (%d,%d)->(%d,%d)\n",
                      name.c_str(), soft, p.sx, p.sy, p.gx, p.gy);
                  continue;
                }
                auto stat = [&](const char* k) {
                  for (auto& [n, v] : r.stats)
                    if (n == k) return v;
                  return 0.0;
                };
                const double opt = p.opt[s - 1];
                const double err = opt > 0 ? 100.0 * (r.length - opt) / opt : 0.0;
                const double ins = stat("insertion_expanded"), ab = stat("abstract_expanded"),
                             rf = stat("refinement_expanded");
                const double ax = double(p.aa_exp[s - 1]);
                sum.add_query(err, ins, ab, rf, ax);
                by_size[{cs, int(ql), int(pl), soft, s}].add_query(err, ins, ab, rf, ax);
                by_length[{cs, int(ql), int(pl), int(opt / 20)}].add_query(err, ins, ab, rf, ax);
                if (csv)
                  csv << name << ',' << soft << ',' << cs << ',' << haa_quality_name(ql) << ','
                      << haa_placement_name(pl) << ',' << s << ',' << p.cap << ',' << p.sx << ','
                      << p.sy << ',' << p.gx << ',' << p.gy << ',' << opt << ',' << r.length << ','
                      << err << ',' << p.aa_exp[s - 1] << ',' << ins << ',' << ab << ',' << rf
                      << ',' << bs.nodes << ',' << bs.edges << ',' << bs.base_nodes << ','
                      << bs.base_edges << ',' << bs.build_ms << '\n';
              }
          }
    }
  }
  bar.done();

  auto label = [&](int cs, int ql, int pl) {
    return "CS" + std::to_string(cs) + " " + haa_quality_name(HaaQuality(ql)) +
           (places.size() > 1 ? std::string(" ") + haa_placement_name(HaaPlacement(pl)) : "");
  };
  std::printf("HAA* experiment: %zu maps, %d problems x sizes {1,2} per map and density\n\n",
              maps.size(), o.problems);
  std::printf("Table I: abstract graph size, %% of the grid graph (mean over maps)\n%-22s", "");
  for (int soft : softs) std::printf(" %7d%%SO", soft);
  std::printf("\n");
  for (int cs : css)
    for (HaaQuality ql : quals)
      for (HaaPlacement pl : places)
        for (int row = 0; row < 2; ++row) {
          std::printf("%-16s %-5s", label(cs, int(ql), int(pl)).c_str(),
                      row == 0 ? "nodes" : "edges");
          for (int soft : softs) {
            const Sum& s = sums[{cs, int(ql), int(pl), soft}];
            std::printf(" %9.1f%%", s.maps ? (row == 0 ? s.nodes_pct : s.edges_pct) / s.maps : 0.0);
          }
          std::printf("\n");
        }
  std::printf("\nFig. 5: mean path-length error vs Annotated A*, %% (all / size 1 / size 2)\n%-22s",
              "");
  for (int soft : softs) std::printf(" %17d%%SO", soft);
  std::printf("\n");
  for (int cs : css)
    for (HaaQuality ql : quals)
      for (HaaPlacement pl : places) {
        std::printf("%-22s", label(cs, int(ql), int(pl)).c_str());
        for (int soft : softs) {
          const Sum& s = sums[{cs, int(ql), int(pl), soft}];
          const Sum& s1 = by_size[{cs, int(ql), int(pl), soft, 1}];
          const Sum& s2 = by_size[{cs, int(ql), int(pl), soft, 2}];
          std::printf("  %5.2f/%5.2f/%5.2f", s.n ? s.err / s.n : 0, s1.n ? s1.err / s1.n : 0,
                      s2.n ? s2.err / s2.n : 0);
        }
        std::printf("\n");
      }
  std::printf(
      "\nFig. 6: mean nodes expanded per query, all densities: HAA* insertion + abstract + "
      "refinement vs Annotated A*\n");
  std::printf("%-22s %10s %10s %10s %10s %10s %8s\n", "", "insertion", "abstract", "refine",
              "HAA* total", "AA*", "AA*/HAA*");
  for (int cs : css)
    for (HaaQuality ql : quals)
      for (HaaPlacement pl : places) {
        Sum t;
        for (int soft : softs) {
          const Sum& s = sums[{cs, int(ql), int(pl), soft}];
          t.n += s.n;
          t.ins += s.ins;
          t.abs += s.abs;
          t.ref += s.ref;
          t.aa += s.aa;
        }
        const double tot = (t.ins + t.abs + t.ref) / std::max(1.0, t.n);
        std::printf("%-22s %10.1f %10.1f %10.1f %10.1f %10.1f %7.1fx\n",
                    label(cs, int(ql), int(pl)).c_str(), t.ins / std::max(1.0, t.n),
                    t.abs / std::max(1.0, t.n), t.ref / std::max(1.0, t.n), tot,
                    t.aa / std::max(1.0, t.n), tot > 0 ? t.aa / std::max(1.0, t.n) / tot : 0.0);
      }
  std::printf(
      "\nFig. 6 by optimal path length (mean expanded, HAA* total / AA*), first cluster size and "
      "placement\n");
  std::printf("%-10s", "length");
  for (HaaQuality ql : quals) std::printf(" %22s", haa_quality_name(ql));
  std::printf("\n");
  int max_bucket = 0;
  for (auto& [k, v] : by_length) max_bucket = std::max(max_bucket, std::get<3>(k));
  for (int b = 0; b <= max_bucket; ++b) {
    bool any = false;
    for (HaaQuality ql : quals) any |= by_length.count({css[0], int(ql), int(places[0]), b}) > 0;
    if (!any) continue;
    std::printf("%4d-%-5d", b * 20, b * 20 + 20);
    for (HaaQuality ql : quals) {
      auto it = by_length.find({css[0], int(ql), int(places[0]), b});
      if (it == by_length.end()) {
        std::printf(" %22s", "-");
        continue;
      }
      const Sum& s = it->second;
      std::printf("   %9.1f / %9.1f", (s.ins + s.abs + s.ref) / s.n, s.aa / s.n);
    }
    std::printf("\n");
  }
  if (incomplete) {
    std::printf("\n%zu problems unsolved by HAA*\n", incomplete);
    return kFailed;
  }
  return kOk;
}

}  // namespace

void add_haa_commands(CLI::App& app, std::vector<Command>& out) {
  auto ao = std::make_shared<AbstractionOptions>();
  auto* abs = app.add_subcommand("abstraction",
                                 "Build an HAA* abstraction and report its size and build time");
  abs->add_option("map", ao->file, "Map (.map), scene (.json) or PNG file")->required();
  abs->add_option("--cluster-size", ao->cluster_size, "Cluster side in cells")
      ->check(CLI::Range(2, 256));
  abs->add_option("--quality", ao->quality, "initial, hq or lq");
  abs->add_option("--sizes", ao->sizes, "Agent sizes the abstraction serves, e.g. 1,2");
  abs->add_option("--transitions", ao->transitions,
                  "Transition placement: paper, middle or spread");
  abs->add_option("--soft", ao->soft, "Turn this percentage of ground cells into swamp first");
  abs->add_option("--seed", ao->seed, "Seed for --soft");
  abs->add_flag("--movingai-obstacles", ao->movingai,
                "Treat terrains outside {ground, swamp} (trees, water) as hard obstacles first");
  abs->add_flag("--json", ao->json_out, "Machine-readable output");
  out.push_back({abs, [ao] { return cmd_abstraction(*ao); }});

  auto eo = std::make_shared<ExperimentOptions>();
  auto* ex = app.add_subcommand(
      "haa-experiment",
      "The HAA* paper's experiment: Table I, Fig. 5 and Fig. 6 on a folder of maps");
  ex->add_option("mapdir", eo->dir, "Folder of .map files (the paper: ../shared/data/bg)")
      ->required();
  ex->add_option("--soft", eo->soft, "Soft-obstacle densities in percent, e.g. 0,10,20,30,40,50");
  ex->add_option("--cluster-sizes", eo->cluster_sizes, "Cluster sizes, e.g. 10,15,20");
  ex->add_option("--qualities", eo->qualities, "Abstraction qualities, e.g. hq,lq");
  ex->add_option("--transitions", eo->transitions,
                 "Transition placements to compare, e.g. paper,middle");
  ex->add_option("--problems", eo->problems,
                 "Problems per map and density (each for sizes 1 and 2)");
  ex->add_option("--maps", eo->max_maps, "Use an even sample of this many maps (0 = all)");
  ex->add_option("--seed", eo->seed, "Seed for soft obstacles and problems");
  ex->add_option("--csv", eo->csv, "Write one row per query to this CSV file");
  ex->add_flag("--smoothing", eo->smoothing, "Smooth HAA* paths before measuring them");
  ex->add_option(
        "--insertion", eo->insertion,
        "auto (default), dijkstra (one search per cluster), astar (one A* per node, the paper) "
        "or cached (trees kept per cluster; their making is not counted as the query's)")
      ->check(CLI::IsMember({"auto", "dijkstra", "astar", "cached"}));
  ex->add_flag("--quiet", eo->quiet, "No progress bar");
  out.push_back({ex, [eo] { return cmd_experiment(*eo); }});
}

}  // namespace pl::cli
