// HAA* (Harabor & Botea, CIG 2008): one abstract graph that answers queries for agents of every
// size in S and every terrain capability in C.
//
// Build (HaaAbstraction::build):
//   - square clusters of cluster_size cells;
//   - entrances per adjacent cluster pair and capability: maximal runs of border cell pairs whose
//     terrains are both in the capability, ended by the border's end, a cell outside the
//     capability, or a rise in clearance on either side (the paper's third rule);
//   - one or two transition points per entrance (placement below), each an undirected inter-edge
//     of weight 1 annotated with (capability, min clearance of the pair);
//   - intra-edges: for every cluster, capability c and size s, one Dijkstra inside the cluster
//     from every abstract node (the paper runs one Annotated A* per node pair; the Dijkstra finds
//     the same optimal lengths in fewer expansions). Annotated with (c, the smallest clearance
//     along the path, diagonal side cells included, which is >= s) and the path cached;
//   - quality: Initial keeps everything; High removes strongly dominated edges (Theorem 6);
//     Low truncates clearances to max(S), removes strongly dominated edges, then weakly
//     dominated inter-edges (Theorem 7) and the nodes only they used (Corollary 8).
//
// Edges are usable by an agent (capability a, size s) iff edge.capability is a subset of a and
// edge.clearance >= s. Diagonal moves across a cluster corner need no edges of their own: no
// corner cutting means both side cells are free, so the two cardinal crossings exist.
//
// Transition placement: Paper = the first pair maximising min clearance (inside an entrance
// clearance never rises, so this is the entrance's first pair, which the paper names as the
// cause of its largest errors); Middle = the middle of the run of pairs whose clearance is at
// least min(maximum, max(S)), i.e. of every pair that serves every agent the entrance can serve
// (in open areas clearance falls along the border, so this moves the transition from the
// entrance's start to its middle); Spread = Middle plus the entrance's last pair when the
// entrance is at least half a cluster long. Completeness holds for all three: within an entrance
// clearance never rises, so every pair a size-s agent (s in S) may cross at is joined to the
// chosen pair by border cells of clearance >= s on both sides.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <ranges>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/clearance.hpp"
#include "core/grid.hpp"
#include "core/search.hpp"
#include "planners/grid_world.hpp"
#include "planners/planner.hpp"

namespace pl {

enum class HaaQuality { Initial, High, Low };
enum class HaaPlacement { Paper, Middle, Spread };
const char* haa_quality_name(HaaQuality q);      // "initial", "hq", "lq"
const char* haa_placement_name(HaaPlacement p);  // "paper", "middle", "spread"

struct HaaParams {
  int cluster_size = 10;
  std::vector<int> sizes = {1, 2};
  // Empty = every non-empty combination of the passable terrains present in the map.
  std::vector<CapabilityMask> capabilities;
  HaaQuality quality = HaaQuality::High;
  HaaPlacement placement = HaaPlacement::Paper;
  bool operator==(const HaaParams&) const = default;
};

struct HaaBuildStats {
  std::size_t clusters = 0, entrances = 0, transitions = 0;
  std::size_t nodes = 0, edges = 0, inter_edges = 0, intra_edges = 0;
  std::size_t base_nodes = 0, base_edges = 0;  // traversable cells, octile adjacencies
  std::size_t removed_strong = 0, removed_weak = 0, removed_nodes = 0;
  std::uint64_t searches = 0, expanded = 0;  // intra-edge Dijkstras
  double build_ms = 0;
  // The last update(): borders re-scanned and clusters whose intra-edges were rebuilt (the
  // whole map after a full build).
  std::size_t rescanned_borders = 0, rebuilt_clusters = 0;
  bool incremental = false;  // the last change was an update(), not a build()
  double node_percent() const {
    return base_nodes ? 100.0 * double(nodes) / double(base_nodes) : 0;
  }
  double edge_percent() const {
    return base_edges ? 100.0 * double(edges) / double(base_edges) : 0;
  }
};

class LocalSearch;

// An allocator whose resize() leaves new elements unwritten: the abstraction's largest arrays
// are overwritten whole right after, and their first write is what faults their pages in, which
// the assembly then shares among threads instead of a serial value-initialisation doing it.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U*) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

class HaaAbstraction {
 public:
  struct Node {
    int x = 0, y = 0;  // cell
    int cluster = 0;
    bool alive = true;
  };
  // 32 bytes (a fresh build writes over half a million of them twice: units and edges()).
  struct Edge {
    std::uint32_t a = 0, b = 0;  // node indices; the cached path runs from a to b
    CapabilityMask capability = 0;
    // The cached path: path_length cells from a to b. An intra-edge's path_length - 1 moves lie
    // at path_offset in its cluster's move codes (see path_of()).
    std::uint32_t path_offset = 0;
    double weight = 0;
    std::uint32_t path_length = 0;
    std::uint16_t clearance = 0;  // as the clearance grids
    bool inter = false;
    bool alive = true;
    bool admits(CapabilityMask cap, int size) const {
      return (capability & ~cap) == 0 && size <= clearance;
    }
  };
  // An edge seen from one end, stored by node so that a node's arcs are contiguous (the edges
  // themselves are spread over a large array). Its weight and requirement are the edge's: the
  // abstract search reads the planner's per-class copies, not these.
  struct Arc {
    std::uint32_t to = 0;    // the node at the other end
    std::uint32_t edge = 0;  // index into edges()
  };
  struct Entrance {
    int cluster_a = 0, cluster_b = 0;  // a is left of / above b
    bool vertical = false;             // true: a vertical border (clusters side by side)
    int x = 0, y = 0;                  // first pair's cell in cluster a
    int length = 0;                    // pairs
    CapabilityMask capability = 0;
    int clearance = 0;  // max over the pairs of min(clearance a side, clearance b side)
    // Inter-edge indices of its transitions that survived dominance (may be empty).
    std::vector<std::uint32_t> transitions;
  };

  // Returns false when cancelled (the abstraction is then empty). Reports through ctx.observer
  // (phases "scan entrances", "choose transitions", "intra edges", "dominance", "abstraction")
  // with marks and tests only: no node events, so a trace's expansion counter stays the query's.
  bool build(const GridMap& map, const HaaParams& params, const RunContext& ctx = {});
  // Brings a built abstraction up to date with `map`, an edited version of the map it was
  // built (or last updated) from: the cells that differ are found by comparison, and only the
  // borders and clusters they can affect are re-made (see docs/haa.md). The result equals
  // build(map, params()) field by field. Falls back to build() when the size, palette or the
  // set of terrains present changed, or when more than `max_changed` cells differ. Returns
  // false when cancelled (the abstraction is then empty).
  bool update(const GridMap& map, const RunContext& ctx = {}, std::size_t max_changed = 0);
  // The map's terrains the abstraction was made from.
  // Whether `map` has the size, palette and terrains the abstraction was made from.
  bool made_from(const GridMap& map) const;
  // Threads the build shares its clusters' intra-edges among (0 = one per hardware thread).
  // The abstraction is the same for any number.
  void set_threads(int n) { threads_ = n; }
  int threads() const { return threads_; }

  const HaaParams& params() const { return params_; }
  const HaaBuildStats& stats() const { return stats_; }
  int width() const { return w_; }
  int height() const { return h_; }
  int cluster_size() const { return params_.cluster_size; }
  int clusters_x() const { return ncx_; }
  int clusters_y() const { return ncy_; }
  int cluster_of(int x, int y) const {
    return (y / params_.cluster_size) * ncx_ + x / params_.cluster_size;
  }
  // Cell rectangle of a cluster: [x0, x1) x [y0, y1).
  void cluster_rect(int c, int& x0, int& y0, int& x1, int& y1) const;

  // Every node ever made (removed ones have alive = false, so indices stay stable); only the
  // edges of the final graph (dominated ones are dropped when the build ends).
  const std::vector<Node>& nodes() const { return nodes_; }
  using Edges = std::vector<Edge, UninitializedAllocator<Edge>>;
  const Edges& edges() const { return edges_; }
  const std::vector<Entrance>& entrances() const { return entrances_; }
  // Alive edges incident to a node, as arcs, and as edge indices (both in edge order).
  std::span<const Arc> arcs(std::uint32_t node) const {
    return {arcs_.data() + arc_begin_[node], arcs_.data() + arc_begin_[node + 1]};
  }
  auto adjacent(std::uint32_t node) const { return arcs(node) | std::views::transform(&Arc::edge); }
  // Alive nodes of a cluster.
  const std::vector<std::uint32_t>& cluster_nodes(int c) const {
    return cluster_nodes_[std::size_t(c)];
  }
  // Cells of an edge's cached path, from edge.a to edge.b, as indices y * width + x (replaces
  // the contents of `out`).
  void path_of(const Edge& e, std::vector<std::uint32_t>& out) const;
  // The same cells but the first appended to `out`, from edge.b to edge.a when `from_b`.
  void append_path(const Edge& e, bool from_b, std::vector<std::uint32_t>& out) const;
  // A path's moves are stored one byte each, as (dy + 1) * 3 + (dx + 1): a quarter of the
  // memory of its cells, which a fresh build would otherwise fault in page by page.
  static constexpr std::uint8_t move_code(int dx, int dy) {
    return std::uint8_t((dy + 1) * 3 + dx + 1);
  }
  const std::vector<CapabilityMask>& capabilities() const { return caps_; }
  // True clearance grid of a capability of the abstraction (nullptr if it is not one of them).
  const ClearanceGrid* clearance(CapabilityMask cap) const;
  // Terrains of the map an agent can use: its capability restricted to the passable terrains
  // present, which is what the abstraction's capabilities are made of.
  CapabilityMask effective(CapabilityMask cap) const { return cap & present_; }
  // Per-cell move-cost multipliers, empty when every terrain costs 1.
  const std::vector<float>& costs() const { return cost_; }
  double min_cost() const { return min_cost_; }
  std::size_t memory_bytes() const;

 private:
  // The abstraction is kept in units that depend only on the map around them, so that an
  // edit re-makes only the units it can affect: one per border segment between two adjacent
  // clusters (its entrances and transitions) and one per cluster (its intra-edges). Units name
  // nodes by cell (y * width + x); assemble() numbers them canonically (by cluster, then cell)
  // and lays the units out in a fixed order, so the arrays depend only on the units' contents.
  // Each unit holds its edges after strong dominance, which only compares edges between the
  // same two nodes: those always belong to one unit.
  struct Unit {
    std::vector<Edge> edges;           // a, b: cells; path_offset into `moves`
    std::vector<std::uint8_t> moves;   // intra-edge paths as move codes (inter-edges: none)
    std::vector<Entrance> entrances;   // borders: transitions index `edges`
    std::vector<std::uint32_t> nodes;  // borders: both cells of every transition made;
                                       // clusters: the member cells, by cell index
    std::vector<Edge> removed;         // watched builds: what strong dominance removed
    std::size_t transitions = 0, removed_strong = 0;
    std::uint64_t searches = 0, expanded = 0;
    // Empties the unit, keeping its buffers.
    void clear() {
      edges.clear();
      moves.clear();
      entrances.clear();
      nodes.clear();
      removed.clear();
      transitions = removed_strong = 0;
      searches = expanded = 0;
    }
    // Becomes a copy of `from` in buffers of exactly its sizes (unless this unit's are larger
    // already): a cluster is made in a thread's scratch unit, whose buffers grow once and stay
    // mapped, and only what survives dominance is written to fresh memory.
    void copy_from(const Unit& from);
  };
  // Border segments: vertical borders first (border k between cluster columns k - 1 and k,
  // segment = cluster row), then horizontal ones; the order of the full scan.
  std::size_t vertical_segments() const { return std::size_t(std::max(0, ncx_ - 1)) * ncy_; }
  std::size_t segment_count() const {
    return vertical_segments() + std::size_t(std::max(0, ncy_ - 1)) * ncx_;
  }
  void scan_segment(std::size_t seg, Unit& out);
  // Per-thread buffers of the cluster work.
  struct Scratch {
    Unit unit;
    std::vector<std::uint32_t> wanted;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;
    std::vector<std::uint32_t> remap;
  };
  void cluster_unit(std::size_t c, LocalSearch& search, Scratch& scratch, Unit& out) const;
  int path_clearance(const ClearanceGrid& cl, std::uint32_t from,
                     std::span<const std::uint8_t> moves) const;
  bool make_clusters(const std::vector<std::uint32_t>& which, const RunContext& ctx);
  // Threads for `n` items of work, at least `per_thread` each (threads_, or one per hardware
  // thread).
  std::size_t thread_count(std::size_t n, std::size_t per_thread) const;
  void unit_dominance(Unit& u, Scratch& scratch) const;
  void assemble(SearchObserver* obs);
  void report_units(SearchObserver* obs) const;
  Entrance segment_clusters(std::size_t seg) const;
  void update_clearance(std::size_t ci, int ex0, int ey0, int ex1, int ey1, int& min_x, int& min_y);
  void count_base(int x0, int y0, int x1, int y1, int sign);
  void make_footprint(int x0, int y0, int x1, int y1);
  void weak_dominance(SearchObserver* obs);
  void finish(SearchObserver* obs);

  HaaParams params_;
  HaaBuildStats stats_;
  int threads_ = 0;
  int w_ = 0, h_ = 0, ncx_ = 0, ncy_ = 0;
  CapabilityMask present_ = 0;
  std::vector<CapabilityMask> caps_;
  std::vector<ClearanceGrid> clearance_;                // by capability index
  std::vector<std::vector<CapabilityMask>> footprint_;  // by size index
  std::vector<TerrainId> cells_;                        // the map the units were made from
  Palette palette_;                                     // the map's, to detect a change
  std::vector<std::uint32_t> terrain_count_;            // cells per terrain
  // Transitions made at each cell: by vertical borders in the low 16 bits, by horizontal ones
  // in the high 16 bits (a horizontal scan sees the vertical borders' nodes, not vice versa).
  std::vector<std::uint32_t> refs_;
  std::vector<Unit> segments_, clusters_;
  bool watched_ = false;  // units keep what strong dominance removed, to report it
  std::vector<float> cost_;
  double min_cost_ = 1.0;
  std::vector<Node> nodes_;
  std::vector<std::int32_t> node_of_cell_;  // -1 = none
  Edges edges_;
  std::vector<Entrance> entrances_;
  std::vector<std::vector<std::uint32_t>> cluster_nodes_;
  std::vector<std::uint32_t> arc_begin_;  // node n's arcs are [arc_begin_[n], arc_begin_[n + 1])
  std::vector<Arc, UninitializedAllocator<Arc>> arcs_;
  std::int32_t move_step_[9] = {};  // a move code's index difference on the map
};

// The open-list order of HAA*'s searches (core/search.hpp): the project's tie rule (smaller f,
// then smaller h) and then the smaller node id. The last key makes the expansion order, and with
// it the parent kept among equally short paths (the cached intra-edge paths and their
// annotations), independent of the heap's layout.
struct HaaOrder {
  bool less(OpenEntry a, OpenEntry b) const {
    return a.f < b.f || (a.f == b.f && (a.h < b.h || (a.h == b.h && a.node < b.node)));
  }
  int less_bits(OpenEntry a, OpenEntry b) const {
    return int(a.f < b.f) |
           (int(a.f == b.f) & (int(a.h < b.h) | (int(a.h == b.h) & int(a.node < b.node))));
  }
};

// Cell-level search inside one rectangle (a cluster) for one agent: Dijkstra from a source to
// every cell, or A* to one target. Shared by the build (intra-edges) and the query (insertion).
// Runs on the shared machinery (core/search.hpp) over the area's padded cells: prepare() makes
// the area's passability (and move costs) once, then any number of searches run on it. Watched
// searches report cells of the map (Cells space, ids y * width + x).
class LocalSearch {
 public:
  struct Area {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // [x0, x1) x [y0, y1)
  };
  // Makes `area` the search space for one agent: `clearance` is the full map's grid for the
  // agent's capability and a cell is free iff its clearance >= size; `costs` are the map's
  // per-cell move-cost multipliers (empty: every terrain costs 1) and `min_cost` scales the A*
  // heuristic.
  void prepare(const Area& area, int map_width, int map_height, const std::uint16_t* clearance,
               int size, const std::vector<float>& costs, double min_cost);
  // A map cell inside the prepared area that the agent may stand on.
  bool free(int x, int y) const { return inside(x, y) && pass_[local(x, y)] != 0; }
  // Free cells of the area.
  std::size_t free_cells() const { return free_cells_; }
  // Dijkstra from (sx, sy) to every cell of the area or, when `stop_after` names cells (indices
  // y * width + x), until all of those inside the area are settled: their distances are then
  // final and the rest of the area need not be expanded.
  void dijkstra(int sx, int sy, std::span<const std::uint32_t> stop_after = {},
                SearchObserver* obs = nullptr);
  // A* from (sx, sy) to (tx, ty).
  void astar(int sx, int sy, int tx, int ty, SearchObserver* obs = nullptr);
  // Distance to a map cell inside the area (infinity if unreached).
  double distance(int x, int y) const;
  // Cells (indices y * width + x) from the source to (x, y), both included; empty if unreached.
  void path_to(int x, int y, std::vector<std::uint32_t>& out) const;
  // The same path's moves appended to `moves` as HaaAbstraction::move_code()s (nothing if
  // unreached), and what it crosses: returns the smallest `clearance` (a map-sized grid) over
  // its cells and the side cells of its diagonal moves, and sets `terrains` to the union of
  // `foot` (map-sized) over its cells.
  int path_moves(int x, int y, std::vector<std::uint8_t>& moves, const std::uint16_t* clearance,
                 const CapabilityMask* foot, CapabilityMask& terrains) const;
  // After a search: for every cell of the area, row by row, the direction (0..7, an index into
  // the octile moves E, S, W, N, SE, SW, NW, NE) in which its parent lies, kSourceDir at the
  // source, kUnreached where the search did not reach. Following the directions from a cell
  // walks a shortest path to the source.
  static constexpr std::uint8_t kSourceDir = 8, kUnreached = 0xff;
  void parent_directions(std::uint8_t* out) const;
  // Walks such directions (`dirs`: an area of width `aw` whose upper-left cell is (x0, y0)) from
  // map cell (x, y) to the source. Returns the cost (the sum, from (x, y) on, of
  // terrain_step_cost over `costs`, or of the move lengths when `costs` is empty) and appends the
  // cells (y * map_width + x) to `cells` if given; infinity if (x, y) was not reached.
  static double walk(const std::uint8_t* dirs, int x0, int y0, int aw, int map_width, int x, int y,
                     const std::vector<float>& costs, std::vector<std::uint32_t>* cells);
  int area_width() const { return area_.x1 - area_.x0; }
  std::uint64_t expanded() const { return expanded_; }
  std::uint64_t generated() const { return generated_; }
  std::size_t memory_bytes() const;
  // What watched searches report: the map's cells (declare it before they run).
  const NodeSpace& space() const { return space_; }

 private:
  template <bool kAStar, bool kCosts>
  struct Problem;
  template <class P>
  void run(int sx, int sy, int tx, int ty, std::size_t wanted, SearchObserver* obs);
  // `wanted`: Dijkstra's count of distinct marked cells in wanted_.
  template <bool kAStar>
  void search(int sx, int sy, int tx, int ty, std::size_t wanted, SearchObserver* obs);
  bool inside(int x, int y) const {
    return x >= area_.x0 && y >= area_.y0 && x < area_.x1 && y < area_.y1;
  }
  // Padded index of a map cell of the area.
  std::uint32_t local(int x, int y) const {
    return std::uint32_t((y - area_.y0 + 1) * pw_ + (x - area_.x0 + 1));
  }

  Area area_;
  int map_w_ = 0, pw_ = 0;  // pw_: the area's padded width
  double min_cost_ = 1.0;
  NodeSpace space_;
  std::vector<std::uint8_t> pass_;    // (w + 2) x (h + 2) of the area, 1 = free, border 0
  std::vector<std::uint8_t> moves_;   // same layout; a free cell's octile moves, one bit each
  std::vector<float> cost_;           // same layout; empty when every terrain costs 1
  std::vector<std::uint8_t> wanted_;  // same layout; 1 = a stop_after cell (0 between searches)
  std::size_t free_cells_ = 0;
  NodePool<double> pool_;
  OpenList<HaaOrder> open_;
  OpenList<TieLargerG> dijkstra_open_;
  std::uint64_t expanded_ = 0, generated_ = 0;
};

// The planner `haa`: caches the abstraction by map (uid, version) and parameters; the first
// query builds it (a watchable phase), later queries reuse it.
struct HaaQueryOptions {
  bool smoothing = false;
  // The abstract search's heuristic: the octile distance, raised by landmark bounds (true) or
  // alone (false). Both are admissible and consistent: the same path lengths, fewer expansions.
  bool landmarks = true;
  // How start and goal are connected to the abstract nodes of their clusters: Dijkstra = one
  // search over the cluster, stopped once its nodes are settled; AStar = one A* per node (the
  // paper); Auto = whichever promises fewer expansions for this cluster: A* per node costs about
  // twice the octile distance to each node, Dijkstra the cluster's free cells (A* wins on
  // clusters with few nodes, Dijkstra on many; see docs/haa.md); Cached = no search per query:
  // the first query of an agent class that lands in a cluster runs one Dijkstra over the
  // cluster from each of its abstract nodes and keeps every cell's parent direction, so later
  // insertions walk those trees (the same shortest distances, as moves cost the same both ways).
  enum class Insertion { Auto, Dijkstra, AStar, Cached } insertion = Insertion::Cached;
  // What a watched query on a cached abstraction reports of the graph (one frame, phase
  // "abstraction"): All = every cluster, entrance, node and edge (a view filters by agent
  // through the shapes' requirements); Agent = only what the query's agent may use; None.
  enum class Graph { All, Agent, None } graph = Graph::All;
};

class HaaPlanner final : public Planner {
 public:
  // `world` applies the "circles" parameter every grid planner shares: the scene's circles are
  // rasterised into the map the abstraction is built on (and rebuilt when they change).
  HaaPlanner(HaaParams params, HaaQueryOptions options, GridWorld world = GridWorld(std::nullopt))
      : params_(std::move(params)), opt_(options), world_(std::move(world)) {}
  PlanResult plan(const Scene& scene, const Query& query, const RunContext& ctx = {}) override;
  size_t memory_bytes() const override;
  // The abstraction of the last query's map (built on demand); nullptr if cancelled.
  const HaaAbstraction* abstraction(const GridMap& map, const RunContext& ctx = {});

 private:
  PlanResult query(const GridMap& map, const Query& q, const RunContext& ctx, bool built_now);
  void report_graph(SearchObserver* obs, CapabilityMask cap, int size) const;

  HaaParams params_;
  HaaQueryOptions opt_;
  GridWorld world_;
  HaaAbstraction abs_;
  bool built_ = false;
  bool just_built_ = false;  // the last abstraction() call built it
  std::uint64_t uid_ = 0, version_ = 0;
  ClearanceCache clearance_;  // for agents whose capability the abstraction does not hold
  LocalSearch local_;
  // The abstract search (core/search.hpp) over the abstract nodes, start (N) and goal (N + 1):
  // how each node was last reached (an abstract edge, a start or goal edge, the direct edge
  // from start to goal; index into the edges or the query's temporary edges), and the goal edge
  // of each abstract node (-1 = none; reset after every query).
  struct AbstractProblem;
  enum LinkKind : std::uint8_t { kAbstractEdge, kStartEdge, kGoalEdge, kDirect };
  struct Link {
    std::uint32_t index = 0;
    std::uint8_t kind = kAbstractEdge;
  };
  NodePool<double> abstract_pool_;
  OpenList<HaaOrder> abstract_open_;
  std::vector<Link> link_;
  std::vector<std::int32_t> goal_edge_;
  // The arcs one agent class (capability, size) may use, by node, with the other end's cell
  // inline: the abstract search reads them without a requirement check and computes h without
  // touching the node array. Made on the first query of a class, dropped with the abstraction.
  struct ClassArc {
    double weight = 0;
    std::uint32_t to = 0, edge = 0;
    std::int32_t x = 0, y = 0;
  };
  // With insertion = Cached, the class's parent-direction trees per cluster (made on demand):
  // cluster c's start at trees[tree_at[c]], one area-sized block (row by row) per node of
  // cluster_nodes(c), in that order.
  struct ClassArcs {
    CapabilityMask capability = 0;
    int size = 0;
    std::vector<std::uint32_t> begin;  // node n's arcs are [begin[n], begin[n + 1])
    std::vector<ClassArc> arcs;
    std::vector<std::uint32_t> tree_at;  // kNoNode: not made yet
    std::vector<std::uint8_t> trees;
    // The abstract search's landmark distances over these arcs (make_landmarks()): node n's
    // distance from landmark k at [n * kLandmarks + k]; kFar where unreachable.
    std::vector<double> landmark_g;
  };
  static constexpr std::uint32_t kLandmarks = 8;
  ClassArcs& class_arcs(CapabilityMask cap, int size);
  void make_landmarks(ClassArcs& c);
  std::vector<ClassArcs> classes_;
  std::vector<std::uint32_t> hops_, piece_;  // refinement's buffers, reused by every query

 public:
  // A temporary edge from the start or goal node to an abstract node of its cluster (or from
  // start to goal when they share a cluster), with its cell path from the start / goal.
  struct TempEdge {
    std::uint32_t node = 0;
    double weight = 0;
    std::vector<std::uint32_t> cells;
    // Cached insertion: the node's tree in ClassArcs::trees (the cells are walked when needed).
    std::uint32_t tree = kNoNode;
  };

 private:
  // Per-query buffers kept across queries: a warm query's fixed cost is a few microseconds, so
  // allocating these each time was a visible share of it (docs/haa.md). to_goal's cells run
  // from the goal.
  std::vector<TempEdge> from_start_, to_goal_;
  std::vector<std::uint32_t> cells_;
  std::vector<CellRun> runs_;
  std::size_t abstraction_bytes_ = 0;  // abs_.memory_bytes(), taken when it was built
};

// Parses "1,2" into sizes; throws InputError.
std::vector<int> parse_haa_sizes(const std::string& text);

// Every non-empty subset of the passable terrains present in the map, smallest masks first.
std::vector<CapabilityMask> haa_default_capabilities(const GridMap& map);

}  // namespace pl
