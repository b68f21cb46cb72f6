// HAA* queries (see haa.hpp): insertion of start and goal, abstract A* over the edges the agent
// may use, refinement from cached paths, optional smoothing; and the registry entry `haa`.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "core/grid_query.hpp"
#include "planners/grid_search.hpp"
#include "planners/grid_world.hpp"
#include "planners/haa.hpp"

namespace pl {

namespace {

using TempEdge = HaaPlanner::TempEdge;

double step_cost(const std::vector<float>& costs, std::uint32_t a, std::uint32_t b, bool diagonal) {
  const double base = diagonal ? kSqrt2 : 1.0;
  return costs.empty() ? base : terrain_step_cost(base, costs[a], costs[b]);
}

// A move between cells a and b is diagonal when both x and y change. On maps 3 or more wide
// the index difference tells (straight moves are +-1 and +-w), without the two divisions per
// cell that made this a visible share of a warm query's time.
bool diagonal_move(std::uint32_t a, std::uint32_t b, int w) {
  if (w >= 3) {
    const std::int64_t d = std::int64_t(b) - std::int64_t(a);
    return d != 1 && d != -1 && d != w && d != -w;
  }
  return int(a) % w != int(b) % w && int(a) / w != int(b) / w;
}

double path_cost(const std::vector<float>& costs, const std::vector<std::uint32_t>& cells, int w) {
  double len = 0;
  for (std::size_t i = 1; i < cells.size(); ++i)
    len += step_cost(costs, cells[i - 1], cells[i], diagonal_move(cells[i - 1], cells[i], w));
  return len;
}

// Cell indices -> points with headings and merged straight pieces (as the grid planners do),
// through runs of equal moves: a move is told from the previous one by its index difference,
// so x and y are divided out only where the direction changes, and the headings come from
// fill_cell_runs()'s table instead of atan2 per turn. `runs` is a buffer.
void fill_geometry(PlanResult& r, const std::vector<std::uint32_t>& cells, int w,
                   std::vector<CellRun>& runs) {
  runs.clear();
  std::int64_t step = 0;  // index difference of the last run's moves
  // dx + w * dy names the move only when w >= 3: on a 2-wide map east and south-west are both +1.
  const bool unique_steps = w >= 3;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const std::int64_t d = std::int64_t(cells[i]) - std::int64_t(cells[i - 1]);
    if (!runs.empty() && d == step && unique_steps) {
      ++runs.back().count;
      continue;
    }
    step = d;
    runs.push_back(
        {int(cells[i]) % w - int(cells[i - 1]) % w, int(cells[i]) / w - int(cells[i - 1]) / w, 1});
  }
  fill_cell_runs(r, int(cells[0]) % w, int(cells[0]) / w, runs);
}

// Shortcuts a grid path: replaces a stretch by the octile-canonical route between its ends
// (diagonal moves then straight ones, or the reverse) when that route is free for the agent,
// needs no corner cutting and is shorter. Looks at most `window` cells ahead of each cell, so
// the cost stays linear in the path length.
std::vector<std::uint32_t> smooth(const std::vector<std::uint32_t>& in, int w, int h,
                                  const std::uint16_t* cl, int size,
                                  const std::vector<float>& costs, int window) {
  std::vector<std::uint32_t> cells = in;
  auto free_at = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < w && y < h &&
           cl[std::size_t(y) * std::size_t(w) + std::size_t(x)] >= size;
  };
  std::vector<std::uint32_t> route;
  // Builds the canonical route from cell a to cell b, both included; false if blocked.
  auto canonical = [&](std::uint32_t a, std::uint32_t b, bool diagonal_first) {
    route.clear();
    int x = int(a) % w, y = int(a) / w;
    const int tx = int(b) % w, ty = int(b) / w;
    const int sx = tx > x ? 1 : (tx < x ? -1 : 0), sy = ty > y ? 1 : (ty < y ? -1 : 0);
    int diag = std::min(std::abs(tx - x), std::abs(ty - y));
    int straight = std::max(std::abs(tx - x), std::abs(ty - y)) - diag;
    const bool along_x = std::abs(tx - x) > std::abs(ty - y);
    route.push_back(a);
    for (int phase = 0; phase < 2; ++phase) {
      const bool do_diag = (phase == 0) == diagonal_first;
      int& count = do_diag ? diag : straight;
      for (; count > 0; --count) {
        const int dx = do_diag ? sx : (along_x ? sx : 0), dy = do_diag ? sy : (along_x ? 0 : sy);
        if (!free_at(x + dx, y + dy)) return false;
        if (dx && dy && (!free_at(x + dx, y) || !free_at(x, y + dy))) return false;
        x += dx;
        y += dy;
        route.push_back(std::uint32_t(y * w + x));
      }
    }
    return true;
  };
  std::vector<double> prefix;
  auto rebuild_prefix = [&] {
    prefix.assign(cells.size(), 0);
    for (std::size_t i = 1; i < cells.size(); ++i)
      prefix[i] = prefix[i - 1] + step_cost(costs, cells[i - 1], cells[i],
                                            diagonal_move(cells[i - 1], cells[i], w));
  };
  rebuild_prefix();
  for (std::size_t i = 0; i + 2 < cells.size(); ++i) {
    const std::size_t jmax = std::min(cells.size() - 1, i + std::size_t(window));
    for (std::size_t j = jmax; j >= i + 2; --j) {
      // Only ends of straight runs (and the window's end) are worth trying: a shortcut to the
      // middle of a run is never better than one to its end by much, and skipping them makes
      // smoothing about linear in the number of turns instead of the window squared.
      if (j != jmax && j + 1 < cells.size() &&
          int(cells[j + 1]) - int(cells[j]) == int(cells[j]) - int(cells[j - 1]))
        continue;
      const double old_len = prefix[j] - prefix[i];
      const int dx = int(cells[j]) % w - int(cells[i]) % w,
                dy = int(cells[j]) / w - int(cells[i]) / w;
      if (octile_distance(dx, dy) * (costs.empty() ? 1.0 : 0.0) >= old_len - 1e-9) continue;
      bool improved = false;
      for (int variant = 0; variant < 2 && !improved; ++variant) {
        if (!canonical(cells[i], cells[j], variant == 0)) continue;
        if (path_cost(costs, route, w) < old_len - 1e-9) {
          std::vector<std::uint32_t> next(cells.begin(), cells.begin() + std::ptrdiff_t(i));
          next.insert(next.end(), route.begin(), route.end());
          next.insert(next.end(), cells.begin() + std::ptrdiff_t(j) + 1, cells.end());
          cells = std::move(next);
          rebuild_prefix();
          improved = true;
        }
      }
      if (improved) break;
    }
  }
  return cells;
}

}  // namespace

const HaaAbstraction* HaaPlanner::abstraction(const GridMap& map, const RunContext& ctx) {
  const bool same =
      built_ && ((map.uid() == uid_ && map.version() == version_) || abs_.made_from(map));
  just_built_ = !same;
  if (!same) {
    // An edited version of the map the abstraction was made from (or any map of its size and
    // palette) is compared with it cell by cell, and only what the changed cells can affect is
    // re-made; update() builds from scratch when many cells changed.
    const bool was_built = built_;
    built_ = false;
    classes_.clear();
    if (!(was_built ? abs_.update(map, ctx) : abs_.build(map, params_, ctx))) return nullptr;
    built_ = true;
    abstraction_bytes_ = abs_.memory_bytes();
  }
  uid_ = map.uid();
  version_ = map.version();
  return &abs_;
}

size_t HaaPlanner::memory_bytes() const {
  std::size_t b = abstraction_bytes_ + local_.memory_bytes() + abstract_pool_.memory_bytes() +
                  abstract_open_.memory_bytes() + link_.capacity() * sizeof(Link) +
                  goal_edge_.capacity() * sizeof(std::int32_t) +
                  (hops_.capacity() + piece_.capacity()) * sizeof(std::uint32_t);
  for (const ClassArcs& c : classes_)
    b += (c.begin.capacity() + c.tree_at.capacity()) * sizeof(std::uint32_t) +
         c.arcs.capacity() * sizeof(ClassArc) + c.trees.capacity() +
         c.landmark_g.capacity() * sizeof(double);
  return b;
}

HaaPlanner::ClassArcs& HaaPlanner::class_arcs(CapabilityMask cap, int size) {
  for (ClassArcs& c : classes_)
    if (c.capability == cap && c.size == size) return c;
  ClassArcs c;
  c.capability = cap;
  c.size = size;
  const auto& nodes = abs_.nodes();
  const auto& edges = abs_.edges();
  c.begin.resize(nodes.size() + 1);
  for (std::uint32_t n = 0; n < nodes.size(); ++n) {
    c.begin[n] = std::uint32_t(c.arcs.size());
    // Of parallel arcs (edges between the same two nodes with other annotations) the class
    // keeps one, at the first one's place, with the least weight (the first of equal ones):
    // the search could never improve a node through the others, so they only cost time.
    const std::size_t first = c.arcs.size();
    for (const HaaAbstraction::Arc& a : abs_.arcs(n)) {
      const HaaAbstraction::Edge& e = edges[a.edge];
      if (!e.admits(cap, size)) continue;
      bool parallel = false;
      for (std::size_t i = first; i < c.arcs.size() && !parallel; ++i)
        if (c.arcs[i].to == a.to) {
          parallel = true;
          if (e.weight < c.arcs[i].weight) {
            c.arcs[i].weight = e.weight;
            c.arcs[i].edge = a.edge;
          }
        }
      if (!parallel) c.arcs.push_back({e.weight, a.to, a.edge, nodes[a.to].x, nodes[a.to].y});
    }
  }
  c.begin[nodes.size()] = std::uint32_t(c.arcs.size());
  make_landmarks(c);
  classes_.push_back(std::move(c));
  return classes_.back();
}

namespace {
// A landmark's distance to the nodes it cannot reach: large enough that the landmark bound of
// such a node is far above any path, finite so that no bound is a NaN (docs/haa.md).
constexpr double kFar = 1e30;

// Dijkstra over one agent class's arcs (HaaPlanner::ClassArcs) from one node: the landmarks'
// distances. Arc is HaaPlanner::ClassArc.
template <class Arc>
struct ClassFlood {
  using Cost = double;
  using Order = HaaOrder;
  static constexpr bool kFastSlot = false;
  static constexpr bool kGrowing = false;
  const std::uint32_t* begin;
  const Arc* arcs;
  std::uint32_t source, bound;
  std::vector<std::uint32_t>* settled;  // every node expanded, in order
  std::uint32_t start() const { return source; }
  std::size_t node_bound() const { return bound; }
  bool stop(std::uint32_t) const { return false; }
  float progress(const OpenEntry&) const { return -1.0f; }
  void evaluate(std::uint32_t, double g, double& f, double& h) const {
    f = g;
    h = 0;
  }
  template <class Out>
  void expand(std::uint32_t n, double g, Out& out) const {
    settled->push_back(n);
    for (const Arc *a = arcs + begin[n], *end = arcs + begin[n + 1]; a != end; ++a)
      out.reach(a->to, g + a->weight);
  }
  std::uint32_t id(std::uint32_t n) const { return n; }
};
}  // namespace

// The landmarks of the abstract search's heuristic (ALT: Goldberg & Harrelson 2005): kLandmarks
// nodes of the class graph's largest component, each the farthest from those chosen before it
// (the first the farthest from an arbitrary node of it), with Dijkstra distances from each.
// The class graph is symmetric (every edge gives an arc both ways, and the parallel-arc choice
// is the same from both ends), so |d(L, n) - d(L, goal)| bounds d(n, goal) from below.
void HaaPlanner::make_landmarks(ClassArcs& c) {
  const std::uint32_t N = std::uint32_t(c.begin.size() - 1);
  c.landmark_g.assign(std::size_t(N) * kLandmarks, kFar);
  // Dijkstra from one node over the class's arcs on the abstract search's pool (it has room
  // for every node); not part of any query's search, like the insertion trees. `settled` lists
  // the nodes it reached, so each flood costs its component's size, not the graph's.
  std::vector<std::uint32_t> settled;
  auto flood = [&](std::uint32_t source) {
    settled.clear();
    ClassFlood<ClassArc> p{c.begin.data(), c.arcs.data(), source, N + 2, &settled};
    Unwatched quiet;
    best_first(p, abstract_pool_, abstract_open_, quiet, RunContext{}, std::uint64_t(1) << 30);
  };
  // The largest component, by a flood from each node no earlier flood reached.
  std::vector<std::uint8_t> reached(N, 0);
  std::uint32_t seed = kNoNode;
  std::size_t seed_count = 0;
  for (std::uint32_t s = 0; s < N; ++s) {
    if (reached[s] || c.begin[s] == c.begin[s + 1]) continue;
    flood(s);
    for (std::uint32_t n : settled) reached[n] = 1;
    if (settled.size() > seed_count) {
      seed = s;
      seed_count = settled.size();
    }
  }
  if (seed == kNoNode) return;  // no arcs: every bound is 0 and the octile distance decides
  // Farthest-first: each landmark is the node of the component farthest from the landmarks
  // chosen before it (the first: from the seed); the smaller id on ties.
  std::vector<double> nearest(N, kFar);
  flood(seed);
  for (std::uint32_t n : settled) nearest[n] = abstract_pool_.g_value(n);
  for (std::uint32_t k = 0; k < kLandmarks; ++k) {
    std::uint32_t far = seed;
    for (std::uint32_t n : settled)
      if (nearest[n] > nearest[far] || (nearest[n] == nearest[far] && n < far)) far = n;
    flood(far);
    for (std::uint32_t n : settled) {
      const double d = abstract_pool_.g_value(n);
      c.landmark_g[std::size_t(n) * kLandmarks + k] = d;
      nearest[n] = k == 0 ? d : std::min(nearest[n], d);
    }
  }
}

PlanResult HaaPlanner::plan(const Scene& scene, const Query& query, const RunContext& ctx) {
  const Stopwatch clock;
  world_.report_blocked(scene, ctx.observer);
  const GridMap& map = world_.map(scene);
  const Stopwatch build_clock;
  if (!abstraction(map, ctx)) {
    PlanResult r;
    r.cancelled = true;
    r.message = "cancelled";
    r.time_ms = clock.ms();
    return r;
  }
  const bool built_now = just_built_;
  const double build_ms = built_now ? build_clock.ms() : 0.0;
  if (ctx.observer && !built_now && opt_.graph != HaaQueryOptions::Graph::None) {
    const CapabilityMask cap =
        query.capability ? query.capability : map.palette().movingai_default_capability();
    if (opt_.graph == HaaQueryOptions::Graph::All)
      report_graph(ctx.observer, 0, 0);
    else
      report_graph(ctx.observer, abs_.effective(cap), std::max(1, query.size));
  }
  PlanResult r = this->query(map, query, ctx, built_now);
  r.prepare_ms = build_ms;  // the abstraction, built once per map
  r.time_ms = clock.ms();
  r.memory_bytes = memory_bytes();
  return r;
}

// A watched query on a cached abstraction shows the graph it searches in one frame, so a view
// can draw (and filter by agent) what the build would have shown.
// cap = 0: everything; otherwise only what an agent of (cap, size) may use.
void HaaPlanner::report_graph(SearchObserver* obs, CapabilityMask cap, int size) const {
  auto shown = [&](CapabilityMask need, int clearance) {
    return cap == 0 || ((need & ~cap) == 0 && size <= clearance);
  };
  obs->phase("abstraction");
  for (int c = 0; c < abs_.clusters_x() * abs_.clusters_y(); ++c) {
    int x0, y0, x1, y1;
    abs_.cluster_rect(c, x0, y0, x1, y1);
    obs->mark(Shape::box(x0, y0, x1, y1), Role::Cluster);
  }
  for (std::uint32_t i = 0; i < abs_.entrances().size(); ++i) {
    const auto& en = abs_.entrances()[i];
    if (!shown(en.capability, en.clearance)) continue;
    const double x = en.vertical ? en.x + 1 : en.x, y = en.vertical ? en.y : en.y + 1;
    Shape s = en.vertical ? Shape::segment({x, y}, {x, y + en.length})
                          : Shape::segment({x, y}, {x + en.length, y});
    s.tag = i;
    obs->mark(s.require(en.capability, en.clearance), Role::Entrance);
  }
  const auto& nodes = abs_.nodes();
  for (const auto& n : nodes)
    if (n.alive) obs->mark(Shape::point({n.x + 0.5, n.y + 0.5}), Role::AbstractNode);
  for (std::uint32_t i = 0; i < abs_.edges().size(); ++i) {
    const auto& e = abs_.edges()[i];
    if (!e.alive || !shown(e.capability, e.clearance)) continue;
    Shape s = Shape::segment({nodes[e.a].x + 0.5, nodes[e.a].y + 0.5},
                             {nodes[e.b].x + 0.5, nodes[e.b].y + 0.5});
    s.tag = i;
    obs->mark(s.require(e.capability, e.clearance),
              e.inter ? Role::Transition : Role::AbstractEdge);
  }
  obs->counter("abstract nodes", double(abs_.stats().nodes));
  obs->counter("abstract edges", double(abs_.stats().edges));
  obs->frame();
}

// The abstract graph of one query as a problem of the search machinery: the abstract nodes
// (ids 0..N-1) with the edges the agent may use, the start (N) with its edges into its cluster
// (and the direct edge when start and goal share one), the goal (N + 1) reached through the goal
// edges. Watched, the nodes are a Layer space (level 1) after the map's cells. Each improvement
// records in link_ which edge reached the node, for refinement.
struct HaaPlanner::AbstractProblem {
  using Cost = double;
  using Order = HaaOrder;
  // Edge weights are at least min_cost times the octile distance between their ends, so the
  // heuristic is consistent and a successor that goes to the next-pop slot has the smallest f
  // (docs/haa.md, "The searches", on the one tie it may take out of order).
  static constexpr bool kFastSlot = true;
  static constexpr bool kGrowing = false;

  HaaPlanner& planner;
  const std::uint32_t* arc_begin;  // the agent's class arcs (class_arcs())
  const ClassArc* arcs;
  Link* link;
  const std::int32_t* goal_edge;
  double min_cost;
  std::uint32_t S, G;
  CellXY start_cell, goal_cell;
  const std::vector<TempEdge>* from_start;
  const std::vector<TempEdge>* to_goal;
  const TempEdge* direct;  // nullptr: start and goal are not joined inside a cluster
  NodeSpace space;
  // The landmark bounds: node n's distances d_k (ClassArcs::landmark_g), and per landmark the
  // least d_k(goal node) + goal edge (`lo`) and the largest d_k(goal node) - goal edge (`hi`)
  // over the goal edges; d(n, goal) >= lo - d_k(n) and >= d_k(n) - hi. A landmark that does not
  // reach every goal node has lo = -inf, hi = +inf (no bound).
  const double* landmark_g;
  std::array<double, kLandmarks> lo, hi;

  CellXY pos(std::uint32_t n) const {
    if (n == S) return start_cell;
    if (n == G) return goal_cell;
    const HaaAbstraction::Node& a = planner.abs_.nodes()[n];
    return {a.x, a.y};
  }
  std::uint32_t start() const { return S; }
  std::size_t node_bound() const { return std::size_t(G) + 1; }
  bool stop(std::uint32_t n) const { return n == G; }
  float progress(const OpenEntry&) const { return -1.0f; }
  // The hint is the node's cell, which an abstract arc carries.
  // h of an abstract node: the larger of the octile distance and the landmark bounds. Each is
  // admissible and consistent on the symmetric class graph (docs/haa.md), so their maximum is.
  void evaluate(std::uint32_t n, double g, double& f, double& h, std::int32_t x,
                std::int32_t y) const {
    double best = min_cost * octile_distance(x - goal_cell.x, y - goal_cell.y);
    const double* d = landmark_g + std::size_t(n) * kLandmarks;
    for (std::uint32_t k = 0; k < kLandmarks; ++k)
      best = std::max(best, std::max(lo[k] - d[k], d[k] - hi[k]));
    h = best;
    f = g + h;
  }
  // The start and the goal: the octile distance alone (they have no landmark distances).
  void evaluate(std::uint32_t n, double g, double& f, double& h) const {
    const CellXY c = pos(n);
    if (n == S || n == G) {
      h = min_cost * octile_distance(c.x - goal_cell.x, c.y - goal_cell.y);
      f = g + h;
    } else {
      evaluate(n, g, f, h, c.x, c.y);
    }
  }

  template <class Out>
  void reach(Out& out, std::uint32_t n, double g, std::uint8_t kind, std::uint32_t index) const {
    if (out.reach(n, g)) link[n] = {index, kind};
  }
  template <class Out>
  void expand(std::uint32_t n, double g, Out& out) const {
    if (n == S) {
      for (std::uint32_t i = 0; i < from_start->size(); ++i)
        reach(out, (*from_start)[i].node, g + (*from_start)[i].weight, kStartEdge, i);
      if (direct) reach(out, G, g + direct->weight, kDirect, 0);
      return;
    }
    for (const ClassArc *a = arcs + arc_begin[n], *end = arcs + arc_begin[n + 1]; a != end; ++a)
      if (out.reach(a->to, g + a->weight, a->x, a->y)) link[a->to] = {a->edge, kAbstractEdge};
    if (const std::int32_t gi = goal_edge[n]; gi >= 0)
      reach(out, G, g + (*to_goal)[std::size_t(gi)].weight, kGoalEdge, std::uint32_t(gi));
  }

  std::uint32_t id(std::uint32_t n) const { return space.base + n; }
  NodeDesc desc(std::uint32_t n) const {
    const CellXY c = pos(n);
    NodeDesc d;
    d.id = id(n);
    d.x = float(c.x + 0.5);
    d.y = float(c.y + 0.5);
    d.level = space.level;
    return d;
  }
};

PlanResult HaaPlanner::query(const GridMap& map, const Query& query, const RunContext& ctx,
                             bool built_now) {
  PlanResult r;
  r.stats.reserve(27);  // the keys below, without regrowing
  SearchObserver* obs = ctx.observer;
  const HaaBuildStats& bs = abs_.stats();
  const int w = map.width(), h = map.height();
  auto add_build_stats = [&] {
    r.stats.push_back({"built", built_now ? 1.0 : 0.0});
    // Whether that was an update after an edit (only the affected clusters re-made).
    r.stats.push_back({"updated", built_now && bs.incremental ? 1.0 : 0.0});
    r.stats.push_back({"build_ms", bs.build_ms});
    r.stats.push_back({"abstract_nodes", double(bs.nodes)});
    r.stats.push_back({"abstract_edges", double(bs.edges)});
    r.stats.push_back({"inter_edges", double(bs.inter_edges)});
    r.stats.push_back({"intra_edges", double(bs.intra_edges)});
    r.stats.push_back({"base_nodes", double(bs.base_nodes)});
    r.stats.push_back({"base_edges", double(bs.base_edges)});
    r.stats.push_back({"node_percent", bs.node_percent()});
    r.stats.push_back({"edge_percent", bs.edge_percent()});
  };
  Query q = query;
  if (q.capability == 0) q.capability = map.palette().movingai_default_capability();
  if (q.size < 1) q.size = 1;
  const CapabilityMask cap = abs_.effective(q.capability);
  const auto sc = cell_of(map, q.start), gc = cell_of(map, q.goal);
  if (!sc || !gc) {
    r.message = outside_reason(map, q.start, q.goal);
    r.bad_query = true;
    add_build_stats();
    return r;
  }
  const int sx = sc->x, sy = sc->y, gx = gc->x, gy = gc->y;
  const ClearanceGrid* clp = abs_.clearance(cap);
  const bool covered =
      clp && std::binary_search(abs_.params().sizes.begin(), abs_.params().sizes.end(), q.size);
  if (!clp) clp = &clearance_.get(map, cap);
  const ClearanceGrid& cl = *clp;
  auto cl_at = [&](int x, int y) {
    return int(cl[std::size_t(y) * std::size_t(w) + std::size_t(x)]);
  };
  const bool start_ok = cl_at(sx, sy) >= q.size, goal_ok = cl_at(gx, gy) >= q.size;
  if (!start_ok || !goal_ok) {
    r.message = blocked_reason(map, q.capability, q.size, true, start_ok ? "goal" : "start",
                               start_ok ? *gc : *sc);
    if (obs) {
      obs->phase("check endpoints");
      obs->test(Shape::cell(sx, sy), start_ok);
      obs->test(Shape::cell(gx, gy), goal_ok);
      obs->frame();
    }
    add_build_stats();
    return r;
  }

  // ---- Insertion: connect start and goal to the abstract nodes of their clusters.
  const auto& nodes = abs_.nodes();
  const auto& costs = abs_.costs();
  const int cstart = abs_.cluster_of(sx, sy), cgoal = abs_.cluster_of(gx, gy);
  std::uint64_t insertion_expanded = 0, insertion_generated = 0, insertion_searches = 0;
  std::uint64_t tree_expanded = 0, trees_made = 0;  // cached insertion: the cache filled
  std::vector<TempEdge>&from_start = from_start_, &to_goal = to_goal_;
  from_start.clear();
  to_goal.clear();
  bool direct = false;
  TempEdge direct_edge;
  ClassArcs& ca = class_arcs(cap, q.size);
  auto insert = [&](int x, int y, int cluster, std::vector<TempEdge>& out, bool is_start) {
    LocalSearch::Area area;
    abs_.cluster_rect(cluster, area.x0, area.y0, area.x1, area.y1);
    bool prepared = false;
    auto prepare = [&] {
      if (!prepared) local_.prepare(area, w, h, cl.data(), q.size, costs, abs_.min_cost());
      prepared = true;
    };
    if (opt_.insertion != HaaQueryOptions::Insertion::Cached || obs) prepare();
    if (obs) {
      obs->space(local_.space());
      obs->phase(is_start ? "insert start" : "insert goal");
      obs->mark(Shape::cell(x, y), is_start ? Role::Start : Role::Goal);
    }
    auto counted = [&] {
      insertion_expanded += local_.expanded();
      insertion_generated += local_.generated();
      ++insertion_searches;
    };
    auto consider = [&](std::uint32_t n) {
      TempEdge t;
      t.node = n;
      t.weight = local_.distance(nodes[n].x, nodes[n].y);
      if (!std::isfinite(t.weight)) return;
      local_.path_to(nodes[n].x, nodes[n].y, t.cells);
      out.push_back(std::move(t));
    };
    auto consider_goal = [&] {
      direct_edge.weight = local_.distance(gx, gy);
      if (!std::isfinite(direct_edge.weight)) return;
      direct = true;
      local_.path_to(gx, gy, direct_edge.cells);
    };
    if (opt_.insertion == HaaQueryOptions::Insertion::Cached) {
      // The cluster's trees for this agent class, made by the first query that needs them.
      const std::uint32_t area_cells = std::uint32_t((area.x1 - area.x0) * (area.y1 - area.y0));
      const auto& members = abs_.cluster_nodes(cluster);
      if (ca.tree_at.empty())
        ca.tree_at.assign(std::size_t(abs_.clusters_x() * abs_.clusters_y()), kNoNode);
      if (ca.tree_at[std::size_t(cluster)] == kNoNode) {
        prepare();
        ca.tree_at[std::size_t(cluster)] = std::uint32_t(ca.trees.size());
        ca.trees.resize(ca.trees.size() + members.size() * area_cells, LocalSearch::kUnreached);
        // Like the build, filling the cache is not part of the query's search: its expansions
        // are counted apart and not reported to the observer, so a query's expansions do not
        // depend on which queries came before it.
        for (std::size_t i = 0; i < members.size(); ++i) {
          const auto& n = nodes[members[i]];
          if (!local_.free(n.x, n.y)) continue;
          local_.dijkstra(n.x, n.y);
          tree_expanded += local_.expanded();
          ++trees_made;
          local_.parent_directions(ca.trees.data() + ca.tree_at[std::size_t(cluster)] +
                                   i * area_cells);
        }
      }
      out.reserve(members.size());
      for (std::size_t i = 0; i < members.size(); ++i) {
        TempEdge t;
        t.node = members[i];
        t.tree = ca.tree_at[std::size_t(cluster)] + std::uint32_t(i * area_cells);
        t.weight = LocalSearch::walk(ca.trees.data() + t.tree, area.x0, area.y0, area.x1 - area.x0,
                                     w, x, y, costs, nullptr);
        if (std::isfinite(t.weight)) out.push_back(std::move(t));
      }
      if (is_start && cgoal == cluster) {
        // Start and goal share the cluster: the direct edge needs a search of its own.
        prepare();
        local_.astar(x, y, gx, gy, obs);
        counted();
        consider_goal();
      }
    } else {
      const bool with_goal = is_start && cgoal == cluster;
      bool dijkstra = opt_.insertion == HaaQueryOptions::Insertion::Dijkstra;
      if (opt_.insertion == HaaQueryOptions::Insertion::Auto) {
        // Estimated expansions: A* per node ~ twice the octile distance to each node the agent
        // can stand on; Dijkstra ~ the free cells of the cluster.
        double astar = 0;
        for (std::uint32_t n : abs_.cluster_nodes(cluster))
          if (local_.free(nodes[n].x, nodes[n].y))
            astar += 2 * (1 + octile_distance(nodes[n].x - x, nodes[n].y - y));
        if (with_goal) astar += 2 * (1 + octile_distance(gx - x, gy - y));
        dijkstra = double(local_.free_cells()) < astar;
      }
      if (dijkstra) {
        // Stops once every abstract node of the cluster (and the goal, if it is there) is settled.
        std::vector<std::uint32_t> wanted;
        for (std::uint32_t n : abs_.cluster_nodes(cluster))
          wanted.push_back(std::uint32_t(nodes[n].y * w + nodes[n].x));
        if (with_goal) wanted.push_back(std::uint32_t(gy * w + gx));
        local_.dijkstra(x, y, wanted, obs);
        counted();
        for (std::uint32_t n : abs_.cluster_nodes(cluster)) consider(n);
        if (with_goal) consider_goal();
      } else {
        // The paper: one A* per abstract node of the cluster (and one to the goal if it is there).
        for (std::uint32_t n : abs_.cluster_nodes(cluster)) {
          if (!local_.free(nodes[n].x, nodes[n].y)) continue;
          local_.astar(x, y, nodes[n].x, nodes[n].y, obs);
          counted();
          consider(n);
        }
        if (with_goal) {
          local_.astar(x, y, gx, gy, obs);
          counted();
          consider_goal();
        }
      }
    }
    if (obs) {
      for (const TempEdge& t : out) {
        const auto& n = nodes[t.node];
        obs->mark(Shape::segment({x + 0.5, y + 0.5}, {n.x + 0.5, n.y + 0.5}).require(cap, q.size),
                  Role::AbstractEdge);
      }
      obs->frame();
    }
  };
  insert(sx, sy, cstart, from_start, true);
  insert(gx, gy, cgoal, to_goal, false);

  // ---- Abstract search: A* over the abstract nodes plus start (N) and goal (N + 1).
  const std::uint32_t N = std::uint32_t(nodes.size());
  const std::uint32_t S = N, G = N + 1;
  if (link_.size() < N + 2) link_.resize(N + 2);
  if (goal_edge_.size() != N) goal_edge_.assign(N, -1);
  for (std::size_t i = 0; i < to_goal.size(); ++i) goal_edge_[to_goal[i].node] = std::int32_t(i);
  AbstractProblem p{.planner = *this,
                    .arc_begin = ca.begin.data(),
                    .arcs = ca.arcs.data(),
                    .link = link_.data(),
                    .goal_edge = goal_edge_.data(),
                    .min_cost = abs_.min_cost(),
                    .S = S,
                    .G = G,
                    .start_cell = *sc,
                    .goal_cell = *gc,
                    .from_start = &from_start,
                    .to_goal = &to_goal,
                    .direct = direct ? &direct_edge : nullptr,
                    .space = NodeSpace::layer(N + 2, 1, std::uint32_t(w * h), "abstract graph"),
                    .landmark_g = ca.landmark_g.data(),
                    .lo = {},
                    .hi = {}};
  for (std::uint32_t k = 0; k < kLandmarks; ++k) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double lo = kInf, hi = -kInf;
    for (const TempEdge& t : to_goal) {
      const double d = ca.landmark_g[std::size_t(t.node) * kLandmarks + k];
      lo = std::min(lo, d + t.weight);
      hi = std::max(hi, d - t.weight);
    }
    if (!opt_.landmarks || to_goal.empty() || hi >= kFar / 2)
      lo = -kInf, hi = kInf;  // see AbstractProblem::lo
    p.lo[k] = lo;
    p.hi[k] = hi;
  }
  const SearchOutcome so = with_listener(obs, [&](auto& l) {
    if constexpr (std::decay_t<decltype(l)>::kActive) {
      l.observer()->space(p.space);
      l.observer()->phase("abstract search");
    }
    return best_first(p, abstract_pool_, abstract_open_, l, ctx, 1024);
  });
  for (const TempEdge& t : to_goal) goal_edge_[t.node] = -1;
  const std::uint64_t abstract_expanded = so.expanded, abstract_generated = so.generated;
  const bool found = so.stopped;
  if (so.cancelled) {
    r.cancelled = true;
    r.message = "cancelled";
  }

  r.expanded = insertion_expanded + abstract_expanded;
  r.generated = insertion_generated + abstract_generated;
  r.found = found;
  r.stats.push_back({"insertion_expanded", double(insertion_expanded)});
  r.stats.push_back({"insertion_searches", double(insertion_searches)});
  r.stats.push_back({"abstract_expanded", double(abstract_expanded)});
  r.stats.push_back({"refinement_expanded", 0.0});
  r.stats.push_back({"trees_made", double(trees_made)});
  r.stats.push_back({"trees_expanded", double(tree_expanded)});
  add_build_stats();
  r.stats.push_back({"covered", covered ? 1.0 : 0.0});
  if (!found) {
    if (!r.cancelled)
      r.message =
          covered ? "no path: the goal is not reachable for this agent"
                  : "no path found; the abstraction does not cover this agent's size or capability";
    return r;
  }

  // ---- Refinement: the abstract path's edges, in order, as cells (cached paths; no search).
  // A temporary edge's cells from its end at (x, y), walked from its tree if it was cached.
  // Buffers kept by the planner, so a query allocates no piece per hop.
  auto temp_cells = [&](const TempEdge& t, int x, int y, std::vector<std::uint32_t>& out) {
    out.clear();
    if (t.tree == kNoNode) {
      out = t.cells;
      return;
    }
    int x0, y0, x1, y1;
    abs_.cluster_rect(abs_.cluster_of(x, y), x0, y0, x1, y1);
    LocalSearch::walk(ca.trees.data() + t.tree, x0, y0, x1 - x0, w, x, y, costs, &out);
  };
  std::vector<std::uint32_t>& hops = hops_;
  hops.clear();
  for (std::uint32_t n = G; n != S; n = abstract_pool_.parent(n)) hops.push_back(n);
  std::reverse(hops.begin(), hops.end());
  std::vector<std::uint32_t>& cells = cells_;
  cells.assign(1, std::uint32_t(sy * w + sx));
  std::vector<Vec2> abstract_points;  // watched only
  if (obs) abstract_points.push_back({sx + 0.5, sy + 0.5});
  std::vector<std::uint32_t>& piece = piece_;
  for (std::uint32_t n : hops) {
    const Link& l = link_[n];
    switch (l.kind) {
      case kAbstractEdge: {
        // Decoded straight onto the path, in the direction the search took the edge.
        const auto& e = abs_.edges()[l.index];
        abs_.append_path(e, e.a != abstract_pool_.parent(n), cells);
        piece.clear();
        break;
      }
      case kStartEdge:
        temp_cells(from_start[l.index], sx, sy, piece);
        break;
      case kGoalEdge:
        temp_cells(to_goal[l.index], gx, gy, piece);
        std::reverse(piece.begin(), piece.end());
        break;
      default:
        piece = direct_edge.cells;
        break;
    }
    if (!piece.empty()) cells.insert(cells.end(), piece.begin() + 1, piece.end());
    if (obs) {
      const CellXY c = p.pos(n);
      abstract_points.push_back({c.x + 0.5, c.y + 0.5});
    }
  }
  r.stats.push_back({"abstract_path_nodes", double(hops.size() + 1)});
  r.stats.push_back({"abstract_length", abstract_pool_.g_value(G)});
  if (obs) {
    obs->phase("refine");
    obs->mark(Shape::polyline(abstract_points), Role::AbstractPath);
  }
  double length = path_cost(costs, cells, w);
  r.stats.push_back({"refined_length", length});
  if (opt_.smoothing) {
    if (obs) {
      PlanResult tmp;
      fill_geometry(tmp, cells, w, runs_);
      obs->path(tmp.pieces);
      obs->frame();
      obs->phase("smooth");
    }
    cells = smooth(cells, w, h, cl.data(), q.size, costs, 3 * abs_.cluster_size());
    length = path_cost(costs, cells, w);
  }
  r.length = length;
  fill_geometry(r, cells, w, runs_);
  if (obs) {
    obs->counter("expanded", double(r.expanded));
    obs->counter("insertion expanded", double(insertion_expanded));
    obs->counter("abstract expanded", double(abstract_expanded));
    obs->path(r.pieces);
    obs->frame();
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Registry entry: haa.

namespace {

void add_haa(Registry& r) {
  r.add({"haa",
         "hierarchical",
         "HAA* (Harabor & Botea 2008): one clearance-annotated abstract graph of square clusters "
         "for agents of every size up to max_size and every terrain capability; insertion, "
         "abstract A*, refinement from cached paths. Near-optimal; the abstraction is built on "
         "the first query, reused while the map is unchanged and updated after an edit",
         false,
         {ParamDesc::integer("cluster_size",
                    "Side of the square clusters in cells (the paper uses 10, 15, 20; 16 is the "
                    "fastest on the dao maps)",
                    2, 256, "16").labelled("cluster side (cells)"),
          ParamDesc::choice("quality",
                     "initial: every edge; hq: strongly dominated edges removed (Theorem 6, "
                     "same optimal abstract paths); lq: clearances truncated to max_size and "
                     "weakly dominated transitions removed (Theorem 7, smaller, longer paths)",
                     {"initial", "hq", "lq"}, "hq").labelled("abstraction quality"),
          ParamDesc::choice("transitions",
                     "paper: the first pair of an entrance with maximal clearance; middle: the "
                     "middle of the run of pairs with maximal clearance; spread: middle plus the "
                     "entrance's far end on entrances at least half a cluster long",
                     {"paper", "middle", "spread"}, "middle").labelled("transition placement"),
          ParamDesc::integer("max_size", "The abstraction serves agent sizes 1..max_size", 1, 16, "2")
              .labelled("largest agent size"),
          ParamDesc::boolean("smoothing", "Shortcut the refined path with octile-canonical stretches",
                     "false").labelled("smooth the path"),
          ParamDesc::choice("heuristic",
                     "The abstract search's heuristic. landmarks: the octile distance or, where "
                     "larger, the bounds from 8 landmarks of the agent's graph (ALT; made on an "
                     "agent's first query); octile: the octile distance alone. Same path "
                     "lengths; landmarks expand about 3x fewer abstract nodes",
                     {"landmarks", "octile"}, "landmarks").labelled("abstract heuristic"),
          ParamDesc::choice("insertion",
                     "cached: the first query of an agent in a cluster keeps a shortest-path "
                     "tree from each abstract node there, later ones walk them (no search); "
                     "dijkstra: one search per cluster connects start (goal) to every abstract "
                     "node there; astar: one A* per abstract node (the paper); auto: whichever "
                     "of those two promises fewer expansions in that cluster",
                     {"cached", "auto", "dijkstra", "astar"}, "cached")
              .labelled("start/goal insertion"),
          ParamDesc::choice("show_graph",
                     "What a watched query on an already built abstraction shows of it: all "
                     "(filter by agent in the view), agent (only what this agent may use), none",
                     {"all", "agent", "none"}, "all").labelled("graph shown"),
          circles_param()},
         [](const ParamSet& ps) {
           HaaParams p;
           p.cluster_size = ps.get_int("cluster_size");
           const std::string q = ps.get("quality");
           p.quality = q == "initial" ? HaaQuality::Initial
                       : q == "lq"    ? HaaQuality::Low
                                      : HaaQuality::High;
           const std::string t = ps.get("transitions");
           p.placement = t == "paper"    ? HaaPlacement::Paper
                         : t == "spread" ? HaaPlacement::Spread
                                         : HaaPlacement::Middle;
           p.sizes.clear();
           for (int s = 1; s <= ps.get_int("max_size"); ++s) p.sizes.push_back(s);
           HaaQueryOptions o;
           o.smoothing = ps.get_bool("smoothing");
           o.landmarks = ps.get("heuristic") == "landmarks";
           const std::string ins = ps.get("insertion");
           o.insertion = ins == "dijkstra" ? HaaQueryOptions::Insertion::Dijkstra
                         : ins == "astar"  ? HaaQueryOptions::Insertion::AStar
                         : ins == "auto"   ? HaaQueryOptions::Insertion::Auto
                                           : HaaQueryOptions::Insertion::Cached;
           const std::string g = ps.get("show_graph");
           o.graph = g == "all"     ? HaaQueryOptions::Graph::All
                     : g == "agent" ? HaaQueryOptions::Graph::Agent
                                    : HaaQueryOptions::Graph::None;
           return std::make_unique<HaaPlanner>(p, o, GridWorld(ps));
         },
         AgentInput::Capability | AgentInput::Size});
  // HAA* answers Annotated A*'s queries (size and capability) near-optimally.
  r.set_reference("haa", "annotated-astar");
}

const PlannerRegistration kRegistration(20, add_haa);

}  // namespace

}  // namespace pl
