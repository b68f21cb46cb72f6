#include "planners/subgoal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "core/grid_query.hpp"
#include "planners/grid_world.hpp"

namespace pl {

namespace {

double euclid(double ax, double ay, double bx, double by) {
  const double dx = bx - ax, dy = by - ay;
  return std::sqrt(dx * dx + dy * dy);
}

OctileCost octile_counts(int dx, int dy) {
  dx = std::abs(dx);
  dy = std::abs(dy);
  const int mn = std::min(dx, dy);
  return {std::uint32_t(std::max(dx, dy) - mn), std::uint32_t(mn)};
}

// The landmarks' graph distances to an endpoint, each through the endpoint's cheapest
// connection: to[l] = min over the connections c of dist(c.sub)[l] + c.w, in T (float for
// Theta*'s table, double for A*'s). A connection's row of the table is contiguous (the
// landmarks innermost), so the connections are the outer loop: one row read each.
template <class T, class Dist>
void through_connections(const std::vector<SubgoalSearch::Conn>& conns, Dist dist,
                         T (&to)[SubgoalGraph::kLandmarks]) {
  for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) to[l] = T(SubgoalGraph::kFar);
  for (const SubgoalSearch::Conn& c : conns) {
    const T* d = dist(c.sub);
    const T w = T(c.w);
    for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) to[l] = d[l] + w < to[l] ? d[l] + w : to[l];
  }
}

template <class Cost>
Cost conn_cost(const SubgoalSearch::Conn& c) {
  if constexpr (std::is_same_v<Cost, OctileCost>) return c.oc;
  else return c.w;
}

}  // namespace

// Node ids: subgoals 0..n-1, the start n, the goal n + 1 (a Points space in watched runs).
struct SubgoalSearch::Nodes {
  const SubgoalGraph* G = nullptr;
  const SubgoalSearch* self = nullptr;
  std::uint32_t n = 0, start_node = 0, goal_node = 0;
  Endpoint s, g;
  double off = 0;  // 0.5 in the cells form: where a vertex is drawn

  void point(std::uint32_t v, double& x, double& y) const {
    if (v < n) {
      x = G->x(v) + off;
      y = G->y(v) + off;
    } else if (v == start_node) {
      x = s.px, y = s.py;
    } else {
      x = g.px, y = g.py;
    }
  }
  // The vertex of a node, when it has one (subgoals, and endpoints that are vertices).
  bool vertex(std::uint32_t v, int& x, int& y) const {
    if (v < n) {
      x = G->x(v), y = G->y(v);
      return true;
    }
    const Endpoint& e = v == start_node ? s : g;
    x = e.x, y = e.y;
    return e.vertex;
  }
  // The heuristic from v to the endpoint `to`: octile move counts (cells) or Euclidean.
  void h_octile(std::uint32_t v, const Endpoint& to, OctileCost& hc) const {
    int x, y;
    vertex(v, x, y);
    hc = octile_counts(to.x - x, to.y - y);
  }
  double h_euclid(std::uint32_t v, const Endpoint& to) const {
    double x, y;
    point(v, x, y);
    return euclid(x, y, to.px, to.py);
  }
  NodeDesc desc(std::uint32_t v) const {
    double x, y;
    point(v, x, y);
    NodeDesc d;
    d.id = v;
    d.x = float(x);
    d.y = float(y);
    d.level = std::int16_t(v < n ? G->level(v) : 0);
    return d;
  }
};

// A* on the graph, bidirectional. The forward side climbs from the start (ascending edges, and
// the top level's edges); the backward side climbs from the goal the same way but stops at the
// top level, which the forward side crosses. Some shortest path climbs from both ends and meets
// (the removal order is a contraction order), so each node is kept twice: the forward copy
// with id v and the backward copy with id v + m (m = n + 2), the way back from the goal. One
// open list orders both sides by f (towards the goal forwards, towards the start backwards),
// behind a root node that opens the start and the goal. Whenever one side improves a node the
// other has reached, the two costs make a path (mu). The search stops when the smallest f left
// is at least mu: every node of a shorter path would have f below mu on its side, so both sides
// would have reached its meeting node exactly and offered that path.
// This replaced a forward search that descended into the goal's ascending set by reversing
// every ascending edge in it per query (about 4,200 edges a query on Aftershock, 44% of it):
// the backward side only expands what its f allows.
template <class C>
struct SubgoalSearch::Meet : SubgoalSearch::Nodes {
  using Cost = C;
  static constexpr bool kOctile = std::is_same_v<Cost, OctileCost>;
  using Order = TieLargerG;
  // Both heuristics are consistent on edges at least as long as they are.
  static constexpr bool kFastSlot = true;
  static constexpr bool kGrowing = false;
  static constexpr bool kClosedFinal = kOctile;  // exact costs: a closed node never improves
  // A heuristic value: a double in both forms, since the landmark bound is not a move count.
  using H = double;

  NodePool<Cost>* pool = nullptr;
  std::uint32_t m = 0;  // n + 2: the backward copy of node v is v + m; the root is 2m
  bool direct = false;
  Cost direct_cost{};
  double h0 = 1;
  bool met = false;
  Cost best{};                   // mu
  std::uint32_t meet = kNoNode;  // the node both sides reached (kNoNode: the direct route)
  std::uint64_t backward_expanded = 0, pruned = 0;
  std::uint32_t* arcs = nullptr;  // per id: the arc it was last reached by (go())

  std::uint32_t root() const { return 2 * m; }
  bool backward(std::uint32_t id) const { return id >= m && id < 2 * m; }
  // The node behind an id (the root stands for the start).
  std::uint32_t base(std::uint32_t id) const {
    return id < m ? id : id == 2 * m ? start_node : id - m;
  }
  // Cells form: the landmarks' graph distances to the goal (forwards) and to the start
  // (backwards), each through the endpoint's cheapest connection, which is that endpoint's
  // exact distance from the landmark (every way from a subgoal to it ends in a connection).
  bool landmarks = false;
  double lg[SubgoalGraph::kLandmarks] = {}, ls[SubgoalGraph::kLandmarks] = {};
  // The heuristic of an id: the octile distance (cells) or the straight line (corners) to its
  // side's endpoint, and for a subgoal in the cells form the larger landmark bound on its graph
  // distance there, max over L of |d(L, to) - d(L, u)| (ALT). Per side this is the maximum of
  // two consistent heuristics on the graph's edges (the landmark bound obeys the triangle
  // inequality on every edge of the graph, ascending ones included), so it stays admissible
  // and consistent, and the stopping rule above holds as it is: it asks of each side only
  // that its own heuristic be consistent (the two sides need not agree, as they must for the
  // average potentials of bidirectional ALT, which would also weaken both bounds by half).
  // Computed in doubles from double distances: a bound off by ~1e-12 can neither prune a
  // shorter path (distinct lengths differ by far more) nor reopen a closed node.
  H heuristic(std::uint32_t id) const {
    const bool bw = backward(id);
    const Endpoint& to = bw ? s : g;
    const std::uint32_t v = base(id);
    if constexpr (kOctile) {
      OctileCost hc;
      h_octile(v, to, hc);
      const double he = hc.value();
      if (!landmarks || v >= n) return he;
      const double* d = G->cell_landmark_dist(v);
      const double* t = bw ? ls : lg;
      double x[SubgoalGraph::kLandmarks];
      for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) x[l] = std::fabs(t[l] - d[l]);
      for (int w = SubgoalGraph::kLandmarks / 2; w > 0; w /= 2)
        for (int l = 0; l < w; ++l) x[l] = x[l] < x[l + w] ? x[l + w] : x[l];
      return x[0] > he ? x[0] : he;
    } else {
      return h_euclid(v, to);
    }
  }
  // f = g + h below mu: worth opening (or, popped, worth expanding).
  bool below_mu(const Cost& gv, const H& h) const {
    return !met || cost_value(gv) + h < cost_value(best);
  }

  std::uint32_t start() const { return root(); }
  std::size_t node_bound() const { return std::size_t(2 * m) + 1; }
  // f and h of a node; expand() passes the h it computed to prune (hint).
  void evaluate(std::uint32_t, const Cost& gv, double& f, double& h, const H& hv) const {
    f = cost_value(gv) + hv;
    h = hv;
  }
  void evaluate(std::uint32_t id, const Cost& gv, double& f, double& h) const {
    if (id == root())
      f = h = 0;
    else
      evaluate(id, gv, f, h, heuristic(id));
  }
  // Popped: the smallest f left; stop when it reaches mu.
  bool stop(std::uint32_t id) const {
    return met && id != root() && !below_mu(pool->g(id), heuristic(id));
  }
  float progress(const OpenEntry& top) const {
    return float(std::clamp(1.0 - double(top.h) / h0, 0.0, 1.0));
  }
  std::uint32_t id(std::uint32_t v) const { return base(v); }
  std::uint32_t id(std::uint32_t v, const H&) const { return base(v); }
  NodeDesc desc(std::uint32_t v) const { return Nodes::desc(base(v)); }
  NodeDesc desc(std::uint32_t v, const H&) const { return Nodes::desc(base(v)); }

  void offer(const Cost& c, std::uint32_t at) {
    if (!met || cost_less(c, best)) {
      met = true;
      best = c;
      meet = at;
    }
  }
  // The other side's copy of subgoal v (id `other`) was reached: the two make a path.
  void meet_at(std::uint32_t v, const Cost& gv, std::uint32_t other) {
    if (pool->seen(other)) offer(gv + pool->g(other), v);
  }
  // Reaches subgoal v on one side with cost ng from `from`. A successor whose f is already at
  // least mu could never be expanded: it is not opened. The backward side's top-level nodes are
  // only labelled (g and parent, no open-list entry): nothing is expanded from them.
  // arc: the ascending arc of base(from) taken (kNoNode from an endpoint), recorded per id so
  // that the path is refined without searching edge lists.
  template <class Out>
  void go(bool bw, std::uint32_t v, const Cost& ng, std::uint32_t from, std::uint32_t arc,
          Out& out) {
    const std::uint32_t id = bw ? v + m : v;
    // Most successors were reached before at no more cost: they are turned away first.
    const typename NodePool<Cost>::Node& node = pool->nodes()[id];
    if (node.search == pool->search_number() && !cost_less(ng, node.g)) return;
    improve(bw, v, id, ng, from, arc, out);
  }
  // go() for a successor that passed the first test (id: v's copy on its side).
  template <class Out>
  void improve(bool bw, std::uint32_t v, std::uint32_t id, const Cost& ng, std::uint32_t from,
               std::uint32_t arc, Out& out) {
    typename NodePool<Cost>::Node& node = pool->nodes()[id];
    const H h = heuristic(id);
    if (!below_mu(ng, h)) {
      ++pruned;
      return;
    }
    if (bw && G->top(v)) {
      node.search = pool->search_number();
      node.g = ng;
      node.parent = from;
      arcs[id] = arc;
      meet_at(v, ng, v);
      return;
    }
    if (out.reach(id, ng, h)) {
      arcs[id] = arc;
      meet_at(v, ng, bw ? v : v + m);
    }
  }
  template <class Out>
  void expand(std::uint32_t id, const Cost& gv, Out& out) {
    if (id == root()) {
      out.reach(start_node, Cost{});
      out.reach(goal_node + m, Cost{});
      return;
    }
    const bool bw = backward(id);
    const std::uint32_t v = base(id);
    if (bw) ++backward_expanded;
    if (v >= n) {
      if (bw) {
        for (const Conn& c : self->gconn_) go(true, c.sub, conn_cost<Cost>(c), id, kNoNode, out);
      } else {
        if (direct) offer(direct_cost, kNoNode);
        for (const Conn& c : self->sconn_) go(false, c.sub, conn_cost<Cost>(c), id, kNoNode, out);
      }
      return;
    }
    // The arcs, the pool and the side in locals: through the members, every store of the
    // relaxation made the compiler reload them per arc, and about three arcs in four are turned
    // away by the first test (profiled on brc202d: ~40 instructions per arc, a third of the
    // search).
    const std::uint32_t end = G->up_end(v);
    const std::uint32_t* to = G->up_to_data();
    const auto* cost = [&] {
      if constexpr (kOctile)
        return G->up_oc_data();
      else
        return G->up_w_data();
    }();
    const typename NodePool<Cost>::Node* nodes = pool->nodes();
    const std::uint32_t sid = pool->search_number();
    const std::uint32_t shift = bw ? m : 0;
    const Cost g0 = gv;
    for (std::uint32_t k = G->up_begin(v); k < end; ++k) {
      const std::uint32_t u = to[k];
      const Cost ng = g0 + cost[k];
      const typename NodePool<Cost>::Node& node = nodes[u + shift];
      if (node.search == sid && !cost_less(ng, node.g)) continue;
      improve(bw, u, u + shift, ng, id, k, out);
    }
  }
};

// Theta* on the graph (corners form), forwards: from any node up its ascending edges, and down
// into the goal's ascending set by the reversed edges gathered per query (each step down may
// still take a shortcut to the goal's side).
struct SubgoalSearch::ThetaProblem : SubgoalSearch::Nodes {
  using Cost = double;
  using Order = TieLargerG;
  // Theta*'s f is not monotone along its shortcuts: the heap only.
  static constexpr bool kFastSlot = false;
  static constexpr bool kGrowing = false;

  NodePool<Cost>* pool = nullptr;
  bool direct = false;
  Cost direct_cost{};
  double h0 = 1;
  std::uint64_t los_tests = 0, los_cells = 0, los_memo = 0, pruned = 0;
  std::uint64_t* memo = nullptr;  // SubgoalSearch::sight_memo_
  unsigned memo_shift = 64;
  SubgoalSearch::ThetaNode* tn = nullptr;  // vertex, best real-edge cost and predecessor
  // The goal's graph distance from each landmark (through its cheapest connection).
  float lg[SubgoalGraph::kLandmarks] = {};
  bool landmarks = false;
  // The heuristic of subgoal u: the straight line (he) or, larger where walls stand between,
  // the landmarks' bound on its graph distance to the goal, |d(L, goal) - d(L, u)| (triangle
  // inequality), confining the top level's search to the ways the walls leave (on brc202d and
  // Aftershock it expanded 2.2-2.7x fewer nodes). That bounds the graph path, not Theta*'s
  // shortcuts, which are a little shorter: taken whole, the bound made Aftershock's paths 0.6%
  // longer; scaled by kLandmarkScale, lengths stay as they were (the any-angle gap to the
  // optimum did not grow) and 1.6-1.7x fewer nodes are expanded.
  static constexpr float kLandmarkScale = 0.97f;
  double h_of(std::uint32_t u, double he) const {
    if (!landmarks || u >= n) return he;
    const float* d = G->landmark_dist(u);
    // Written as a tree of independent maxima so that the compiler can use vector maxima (no
    // NaN: unreachable is a large finite distance).
    float x[SubgoalGraph::kLandmarks];
    for (int l = 0; l < SubgoalGraph::kLandmarks; ++l) x[l] = std::fabs(lg[l] - d[l]);
    for (int w = SubgoalGraph::kLandmarks / 2; w > 0; w /= 2)
      for (int l = 0; l < w; ++l) x[l] = x[l] < x[l + w] ? x[l + w] : x[l];
    return std::max(he, double(x[0] * kLandmarkScale));
  }
  // h_of for a subgoal, computed when it is first reached in this search and kept in its
  // record: on a dense top level a node is improved several times.
  template <class Straight>
  double h_cached(SubgoalSearch::ThetaNode& t, std::uint32_t u, bool seen, Straight he) const {
    if (!seen) t.h = float(h_of(u, he()));
    return double(t.h);
  }
  // The expanded node's parent (set by expand() for relax_to): id, vertex, g.
  std::uint32_t pp_ = kNoNode;
  bool pp_vertex_ = false;
  double ppx_ = 0, ppy_ = 0;
  double gpp_ = 0;

  std::uint32_t start() const { return start_node; }
  std::size_t node_bound() const { return std::size_t(n) + 2; }
  bool stop(std::uint32_t v) const { return v == goal_node; }
  float progress(const OpenEntry& top) const {
    return float(std::clamp(1.0 - double(top.h) / h0, 0.0, 1.0));
  }
  void evaluate(std::uint32_t v, const Cost& gv, double& f, double& h) const {
    evaluate(v, gv, f, h, h_of(v, h_euclid(v, g)));
  }
  // relax_to() passes the h it computed for its bound test.
  void evaluate(std::uint32_t, const Cost& gv, double& f, double& h, double hv) const {
    h = hv;
    f = gv + hv;
  }
  std::uint32_t id(std::uint32_t v) const { return v; }
  // The goal's cost so far (infinite until it is reached).
  double bound() const {
    return pool->seen(goal_node) ? pool->g_value(goal_node) : std::numeric_limits<double>::infinity();
  }

  // Theta* here is lazy (Nash, Koenig & Tovey 2010): a successor hangs from the expanded
  // node's parent without a test; the test is made once, when the successor is expanded, and
  // if it fails the successor falls back to its best real edge (rg, rpar). Every link of a
  // path is thus a graph edge or a tested sight line; a dense top level makes many more
  // relaxations than expansions, so this saves most of the (long) tests.
  // A successor whose f already exceeds the goal's cost is not opened: the goal would be popped
  // before it (the through-parent cost gp is at most the real one, real >= gp by the triangle
  // inequality, so both are above). Its real-edge fallback is still recorded.
  template <class Out>
  void relax_to(std::uint32_t par, const Cost& gpar, std::uint32_t u, const Cost& edge, Out& out) {
    const bool seen = pool->seen(u);
    // Expanded already: Theta* never reopens it, and its fallback was used when it was expanded
    // (the top level's arcs run both ways, so many relaxations end here; this skips their
    // square roots).
    if (seen && pool->positions()[u] == NodePool<Cost>::kClosed) return;
    const Cost real = gpar + edge;
    if (!seen || real < tn[u].rg) {
      tn[u].rg = real;
      tn[u].rpar = par;
    }
    // h (a square root) only for successors the step would improve; the rest leave at the same
    // test the relaxation makes (most relaxations on a dense top level).
    const std::uint32_t pp = pp_;
    int ux, uy;
    if (pp_vertex_ && vertex(u, ux, uy)) {
      const double gp = gpp_ + euclid(ppx_, ppy_, ux, uy);
      if (u != goal_node) {
        if (seen && !(gp < pool->g_value(u))) return;
        const double hu = h_cached(tn[u], u, seen, [&] { return h_euclid(u, g); });
        if (gp + hu > bound()) {
          ++pruned;
          return;
        }
        out.reach_via(pp, pp, u, gp, hu);
        return;
      }
      // The goal is never expanded: its shortcut is tested now.
      if (gp > bound()) {
        ++pruned;
        return;
      }
      if (!(seen && pool->g_value(u) <= gp) && sees(pp, u, out, par)) {
        out.reach_via(pp, pp, u, gp, 0.0);
        return;
      }
    }
    if (seen && !(real < pool->g_value(u))) return;
    const double hu = h_cached(tn[u], u, seen, [&] { return h_euclid(u, g); });
    if (real + hu > bound()) {
      ++pruned;
      return;
    }
    out.reach(u, real, hu);
  }
  // Line of sight from a to b, a shortcut past `via` (the corner the real path bends at, or
  // kNoNode). Shortcuts that fail mostly cut through the obstacle the bend goes round, so the
  // cells at the bend and at both ends are looked at first, in constant time (on brc202d 60%
  // of the lazy tests failed, at ~1,800 instructions a walk; the cells settle half to 57% of
  // the failures on brc202d and Aftershock).
  template <class Out>
  bool sees(std::uint32_t a, std::uint32_t b, Out& out, std::uint32_t via = kNoNode) {
    int ax, ay, bx, by, wx, wy;
    vertex(a, ax, ay);
    vertex(b, bx, by);
    ++los_tests;
    const CornerGrid& cg = G->corners();
    // The cells at the bend and at both ends, then the walk.
    const auto look = [&] {
      if ((via != kNoNode && vertex(via, wx, wy) && cg.crosses_blocked_at(ax, ay, bx, by, wx, wy)) ||
          cg.crosses_blocked_at(ax, ay, bx, by, ax, ay) ||
          cg.crosses_blocked_at(ax, ay, bx, by, bx, by)) {
        ++los_cells;
        return false;
      }
      return cg.visible(ax, ay, bx, by);
    };
    bool ok;
    if (a < n && b < n) {
      // Subgoals are fixed for the map version, so the answer is too. Ids stay below 2^31. The
      // table is asked first: a remembered pair needs neither the cells nor the walk (the cells'
      // answers are remembered too; every entry is the pair's true visibility).
      const std::uint64_t lo = std::min(a, b), hi = std::max(a, b);
      const std::uint64_t key = ((lo << 31 | hi) << 2) | 2u;
      std::uint64_t& slot = memo[((lo << 32 | hi) * 0x9E3779B97F4A7C15ull) >> memo_shift];
      if ((slot & ~std::uint64_t(1)) == key) {
        ok = (slot & 1u) != 0;
        ++los_memo;
      } else {
        ok = look();
        slot = key | (ok ? 1u : 0u);
      }
    } else {
      ok = look();
    }
    using L = std::decay_t<decltype(out.listener())>;
    if constexpr (L::kActive)
      out.listener().test(Shape::segment({double(ax), double(ay)}, {double(bx), double(by)}), ok);
    return ok;
  }

  template <class Out>
  void expand(std::uint32_t v, const Cost& g_popped, Out& out) {
    Cost gv = g_popped;
    // Every closed node but the goal (stop()) is expanded: relax_arc's closed test.
    if (v < n) tn[v].closed = pool->search_number();
    // The lazy test: a node hanging from a grandparent must see it, else its real edge.
    const std::uint32_t pv = pool->parent(v);
    if (v < n && pv != kNoNode && pv != tn[v].rpar && !sees(pv, v, out, tn[v].rpar)) {
      NodePool<Cost>::Node& node = pool->nodes()[v];
      node.g = tn[v].rg;
      node.parent = tn[v].rpar;
      gv = tn[v].rg;
    }
    // The parent every successor may hang from, fixed for the whole expansion: it is closed
    // (the parent of an expanded node was expanded), so its g no longer changes.
    pp_ = pool->parent(v);
    int ppx = 0, ppy = 0;
    pp_vertex_ = pp_ != kNoNode && vertex(pp_, ppx, ppy);
    ppx_ = ppx;
    ppy_ = ppy;
    gpp_ = pp_vertex_ ? pool->g_value(pp_) : 0.0;
    if (v == start_node) {
      for (const Conn& c : self->sconn_) relax_to(v, gv, c.sub, c.w, out);
      if (direct) out.reach(goal_node, gv + direct_cost);
      return;
    }
    if (v >= n) return;
    // The arcs lead to subgoals only (vertices, coordinates in xy): relax_arc. The goal's
    // connection goes through the general step.
    const ArcLoop arcs{*this, v, gv};
    const std::uint32_t end = G->up_end(v);
    const std::uint32_t* to = G->up_to_data();
    const double* w = G->up_w_data();
    for (std::uint32_t k = G->up_begin(v); k < end; ++k) relax_arc(arcs, to[k], w[k], out);
    // Down into the goal's side: the reversed ascending arcs from the subgoals on it, looked at
    // only where one exists (a top-level node has hundreds of reversed arcs, nearly all from
    // elsewhere: scanning them was ~6,000 reads a brc202d query, 6% of it).
    const std::uint32_t stamp = self->stamp_;
    const SideMark* sm = self->gsm_.data();
    if (sm[v].pred == stamp) {
      const std::uint32_t* from = G->down_from_data();
      const double* dw = G->down_w_data();
      const std::uint32_t dend = G->down_end(v);
      for (std::uint32_t k = G->down_begin(v); k < dend; ++k)
        if (sm[from[k]].side == stamp) relax_arc(arcs, from[k], dw[k], out);
    }
    if (self->gmark_[v] == stamp) relax_to(v, gv, goal_node, self->gw_[v], out);
  }

  // What relax_arc reads, fixed for one expansion and kept in locals: the pool's arrays, the
  // goal's cost so far (no arc leads to the goal, so it cannot change during the arcs) and
  // the parent's coordinates. Profiled, the general step reloaded these and converted the
  // parent's integer coordinates to doubles per arc: ~80 instructions an arc, the loop's
  // largest cost (a dense top level makes ~28 arcs an expansion on Aftershock).
  struct ArcLoop {
    std::uint32_t v;
    Cost gv;
    typename NodePool<Cost>::Node* nodes;
    std::uint32_t sid;
    double bound;
    SubgoalSearch::ThetaNode* tn;
    bool pp_vertex;
    double ppx, ppy, gpp, gx, gy;
    ArcLoop(ThetaProblem& p, std::uint32_t v_, Cost gv_)
        : v(v_),
          gv(gv_),
          nodes(p.pool->nodes()),
          sid(p.pool->search_number()),
          bound(p.bound()),
          tn(p.tn),
          pp_vertex(p.pp_vertex_),
          ppx(p.ppx_),
          ppy(p.ppy_),
          gpp(p.gpp_),
          gx(p.g.px),
          gy(p.g.py) {}
  };
  // relax_to() for an arc into subgoal u, the same decisions in the same arithmetic.
  template <class Out>
  void relax_arc(const ArcLoop& a, std::uint32_t u, double edge, Out& out) {
    // Expanded already (the record's stamp, so that such an arc reads one cache line).
    SubgoalSearch::ThetaNode& t = a.tn[u];
    if (t.closed == a.sid) return;
    const typename NodePool<Cost>::Node& node = a.nodes[u];
    const bool seen = node.search == a.sid;
    const Cost real = a.gv + edge;
    if (!seen || real < t.rg) {
      t.rg = real;
      t.rpar = a.v;
    }
    const double ux = t.x, uy = t.y;
    if (a.pp_vertex) {
      const double gp = a.gpp + euclid(a.ppx, a.ppy, ux, uy);
      if (seen && !(gp < node.g)) return;
      const double hu = h_cached(t, u, seen, [&] { return euclid(ux, uy, a.gx, a.gy); });
      if (gp + hu > a.bound) {
        ++pruned;
        return;
      }
      out.reach_via(pp_, pp_, u, gp, hu);
      return;
    }
    if (seen && !(real < node.g)) return;
    const double hu = h_cached(t, u, seen, [&] { return euclid(ux, uy, a.gx, a.gy); });
    if (real + hu > a.bound) {
      ++pruned;
      return;
    }
    out.reach(u, real, hu);
  }
};

void SubgoalSearch::reset_side_marks() {
  for (std::uint32_t v = 0; v < gsm_.size(); ++v) gsm_[v] = {graph_.top(v) ? kTopSide : 0u, 0u};
}

std::size_t SubgoalSearch::memory_bytes() const {
  return graph_.memory_bytes() + up_.capacity() * 4 + gmark_.capacity() * 4 +
         gsm_.capacity() * sizeof(SideMark) + gw_.capacity() * 8 +
         tn_.capacity() * sizeof(ThetaNode) + sight_memo_.capacity() * 8 +
         (gcx_.capacity() + gcy_.capacity() + scx_.capacity() + scy_.capacity()) * 4 +
         conn_at_.capacity() * 4 + runs_.capacity() * sizeof(CellRun) +
         (arc_.capacity() + chain_edges_.capacity()) * 4 + pool_oc_.memory_bytes() +
         pool_d_.memory_bytes() + open_.memory_bytes();
}

// Connections of an endpoint: the subgoals direct-h-reachable from its vertex (any-angle: from
// each corner of its cell, after a leg), the shortest kept per subgoal. No line-of-sight test:
// direct-h-reachable corners see each other (Uras & Koenig 2015, section "Direct-h-reachability
// and line-of-sight": the parallelogram of their shortest grid paths meets no blocked cell's
// interior, and the segment stays inside it; our moves never enter a pinch corner, so none lies
// on it either). Test Subgoal.DirectHReachableCornersSee checks this on random maps. The tests
// were 22% of a Theta* query on Aftershock (every 6th problem).
void SubgoalSearch::connect(const Endpoint& e, std::vector<Conn>& out) {
  out.clear();
  const bool corners = graph_.form() == SubgoalGraph::Form::Corners;
  // Ties keep the first corner visited (row, then column).
  auto add = [&](std::uint32_t sub, double w, OctileCost oc, int cx, int cy) {
    if (conn_at_[sub] < out.size() && out[conn_at_[sub]].sub == sub) {
      Conn& c = out[conn_at_[sub]];
      if (w < c.w) c = {sub, w, oc, cx, cy};
      return;
    }
    conn_at_[sub] = std::uint32_t(out.size());
    out.push_back({sub, w, oc, cx, cy});
  };
  auto from_vertex = [&](int vx, int vy, double leg, unsigned skip) {
    if (!graph_.usable(vx, vy)) return;
    const std::uint32_t self = graph_.subgoal_at(vx, vy);
    if (self != kNoNode) add(self, leg, OctileCost{}, vx, vy);
    graph_.direct_h_reachable(
        vx, vy,
        [&](std::uint32_t t, OctileCost oc) {
          if (t == self) return;
          add(t, corners ? leg + euclid(vx, vy, graph_.x(t), graph_.y(t)) : oc.value(), oc, vx, vy);
        },
        skip);
  };
  if (e.vertex) {
    from_vertex(e.x, e.y, 0.0, 0);
  } else {
    // A point inside a cell: from each corner, the routes that pass another corner of the cell
    // are left out when that corner's leg is shorter than this one's plus 1 (always, for the
    // cell's centre): from there the programme finds the same subgoal at least 1 shorter
    // (SubgoalGraph::cell_corner_skip), so the kept connection does not change. Each corner
    // then walks three diagonals and two straight runs instead of four and four (the programme
    // was 17-23% of a Theta* query).
    double leg[4];
    for (int c = 0; c < 4; ++c) leg[c] = euclid(e.px, e.py, e.x + (c & 1), e.y + (c >> 1));
    for (int c = 0; c < 4; ++c)
      from_vertex(e.x + (c & 1), e.y + (c >> 1), leg[c], SubgoalGraph::cell_corner_skip(leg, c));
  }
}

namespace {
// Radius step between a subgoal's level rings for a graph of `levels` levels.
double ring_step(int levels) { return std::min(0.18, 0.45 / std::max(levels, 1)); }
}  // namespace

// The graph for a watching observer: subgoals with one ring per level, the S_1 edges, the edges
// partitioning added. The rings stay inside 0.45 of a cell whatever the level count (an N-level
// graph of the corners form has 8-19 levels; rings 0.18 apart grew into discs several cells
// wide that hid the map and the path): 0.18 apart up to two levels, closer beyond.
void SubgoalSearch::report_graph(SearchObserver* o) const {
  const double off = graph_.form() == SubgoalGraph::Form::Cells ? 0.5 : 0.0;
  const double step = ring_step(graph_.top_level());
  o->role_name(Role::Subgoal, "subgoal (a ring a level)");
  o->role_name(Role::AbstractEdge, "graph edge");
  o->role_name(Role::Candidate, "edge partitioning added");
  o->role_name(Role::Highlight, "ascending edge of this query");
  o->role_name(Role::AbstractNode, "top-level subgoal");
  o->phase("subgoals");
  for (std::uint32_t s = 0; s < graph_.size(); ++s) {
    const Vec2 c{graph_.x(s) + off, graph_.y(s) + off};
    for (int l = 1; l <= graph_.level(s); ++l) {
      Shape ring = Shape::circle(c, step * l);
      ring.level = std::int16_t(l);
      ring.tag = s;
      o->mark(ring, Role::Subgoal);
    }
  }
  o->frame();
  o->phase("subgoal graph edges");
  for (std::uint32_t s = 0; s < graph_.size(); ++s)
    for (const SubgoalGraph::Edge& e : graph_.edges(s))
      if (e.to > s && e.via == kNoNode)
        o->mark(Shape::segment({graph_.x(s) + off, graph_.y(s) + off},
                               {graph_.x(e.to) + off, graph_.y(e.to) + off}),
                Role::AbstractEdge);
  o->frame();
  if (!added_.empty()) {
    o->phase("edges partitioning added");
    for (const auto& [a, b, via] : added_) {
      Shape sh = Shape::segment({graph_.x(a) + off, graph_.y(a) + off}, {graph_.x(b) + off, graph_.y(b) + off});
      sh.tag = via;
      o->mark(sh, Role::Candidate);
    }
    o->frame();
  }
}

template <class Cost, bool Theta>
PlanResult SubgoalSearch::search(const Endpoint& s, const Endpoint& g, const RunContext& ctx,
                                 PlanResult r) {
  const std::uint32_t n = graph_.size();
  const bool corners = graph_.form() == SubgoalGraph::Form::Corners;
  if (++stamp_ == kTopSide) {
    std::fill(up_.begin(), up_.end(), 0u);
    std::fill(gmark_.begin(), gmark_.end(), 0u);
    reset_side_marks();
    stamp_ = 1;
  }
  SearchObserver* obs = ctx.observer;
  if (obs) {
    obs->space(NodeSpace::points(n + 2, 0, "subgoal graph"));
    report_graph(obs);
    obs->phase("connect start and goal");
  }
  connect(s, sconn_);
  connect(g, gconn_);
  for (const Conn& c : gconn_) {
    gmark_[c.sub] = stamp_;
    gw_[c.sub] = c.w;
    gcx_[c.sub] = c.cx;
    gcy_[c.sub] = c.cy;
  }
  for (const Conn& c : sconn_) {
    scx_[c.sub] = c.cx;
    scy_[c.sub] = c.cy;
  }
  // Theta*: the goal's side, its ascending set (subgoals reachable from its connections by
  // ascending edges, below the top level), marked; the search descends into it by the graph's
  // reversed arcs (building them per query was ~10,000 arcs an Aftershock query, 19% of it).
  std::size_t goal_side = 0;
  stack_.clear();
  // The marks of a subgoal are one record (its side and pred stamps), top-level subgoals
  // carry kTopSide as side for good (no rank look-up), and the arrays are in locals: the walk
  // was 13% of a query's time on Aftershock (perf), most of it the stores' cache misses and
  // member reloads after each push.
  if constexpr (Theta) {
    SideMark* sm = gsm_.data();
    const std::uint32_t stamp = stamp_;
    for (const Conn& c : gconn_) {
      SideMark& m = sm[c.sub];
      if (m.side == kTopSide) {
        ++goal_side;  // on the goal side, nothing to climb from
      } else if (m.side != stamp) {
        m.side = stamp;
        stack_.push_back(c.sub);
      }
    }
    const std::uint32_t* to = graph_.up_to_data();
    while (!stack_.empty()) {
      const std::uint32_t v = stack_.back();
      stack_.pop_back();
      ++goal_side;
      const std::uint32_t end = graph_.up_end(v);
      for (std::uint32_t k = graph_.up_begin(v); k < end; ++k) {
        SideMark& m = sm[to[k]];
        m.pred = stamp;
        // Older stamps are smaller; kTopSide is larger than any stamp.
        if (m.side < stamp) {
          m.side = stamp;
          stack_.push_back(to[k]);
        }
      }
    }
  }
  if (obs) {
    const double off = corners ? 0.0 : 0.5;
    for (const auto* list : {&sconn_, &gconn_}) {
      const Endpoint& e = list == &sconn_ ? s : g;
      for (const Conn& c : *list) {
        if (!e.vertex) obs->mark(Shape::segment({e.px, e.py}, {double(c.cx), double(c.cy)}), Role::Start);
        obs->mark(Shape::segment({c.cx + off, c.cy + off}, {graph_.x(c.sub) + off, graph_.y(c.sub) + off}),
                  list == &sconn_ ? Role::Start : Role::Goal);
      }
    }
    obs->frame();
    obs->phase("ascending edges");
    // Both ends' ascending sets (the search finds them by itself; drawn only).
    stack_.clear();
    for (const auto* list : {&sconn_, &gconn_})
      for (const Conn& c : *list)
        if (up_[c.sub] != stamp_) {
          up_[c.sub] = stamp_;
          stack_.push_back(c.sub);
        }
    while (!stack_.empty()) {
      const std::uint32_t v = stack_.back();
      stack_.pop_back();
      for (const SubgoalGraph::Edge& e : graph_.edges(v)) {
        if (graph_.top(v) || graph_.rank(e.to) <= graph_.rank(v)) break;
        if (up_[e.to] != stamp_) {
          up_[e.to] = stamp_;
          stack_.push_back(e.to);
        }
      }
    }
    for (std::uint32_t v = 0; v < n; ++v) {
      if (up_[v] != stamp_ || graph_.top(v)) continue;
      for (const SubgoalGraph::Edge& e : graph_.edges(v)) {
        if (graph_.rank(e.to) <= graph_.rank(v)) break;
        obs->mark(Shape::segment({graph_.x(v) + off, graph_.y(v) + off}, {graph_.x(e.to) + off, graph_.y(e.to) + off}),
                  Role::Highlight);
      }
    }
    obs->frame();
    obs->phase("top level");
    for (std::uint32_t v = 0; v < n; ++v)
      if (graph_.top(v) || graph_.level(v) == graph_.top_level()) obs->mark(Shape::point({graph_.x(v) + off, graph_.y(v) + off}), Role::AbstractNode);
    obs->frame();
  }

  Nodes nodes;
  nodes.G = &graph_;
  nodes.self = this;
  nodes.n = n;
  nodes.start_node = n;
  nodes.goal_node = n + 1;
  nodes.s = s;
  nodes.g = g;
  nodes.off = corners ? 0.0 : 0.5;
  // A direct route between the endpoints (the graph cannot see one that passes no subgoal).
  bool direct = false;
  Cost direct_cost{};
  int dsx = s.x, dsy = s.y, dgx = g.x, dgy = g.y;
  if (!corners) {
    if (graph_.direct_route(s.x, s.y, g.x, g.y)) {
      direct = true;
      if constexpr (std::is_same_v<Cost, OctileCost>)
        direct_cost = octile_counts(g.x - s.x, g.y - s.y);
    }
  } else {
    double best = std::numeric_limits<double>::infinity();
    if (!s.vertex && !g.vertex && s.x == g.x && s.y == g.y) {
      best = euclid(s.px, s.py, g.px, g.py);  // inside one open cell
      dsx = dgx = -1;
    } else {
      // Up to 16 corner pairs, nearly parallel segments that nearly always run into the same
      // wall: a blocked cell a walk stopped at settles each later pair whose segment crosses it
      // in constant time (crosses_cell(); then the pair is not visible, as its walk would say).
      const CornerGrid& cg = graph_.corners();
      int wall_x[16], wall_y[16], walls = 0;
      for (int a = 0; a < (s.vertex ? 1 : 4); ++a)
        for (int b = 0; b < (g.vertex ? 1 : 4); ++b) {
          const int ax = s.x + (s.vertex ? 0 : a & 1), ay = s.y + (s.vertex ? 0 : a >> 1);
          const int bx = g.x + (g.vertex ? 0 : b & 1), by = g.y + (g.vertex ? 0 : b >> 1);
          if (!graph_.usable(ax, ay) || !graph_.usable(bx, by)) continue;
          const double len = euclid(s.px, s.py, ax, ay) + euclid(ax, ay, bx, by) + euclid(bx, by, g.px, g.py);
          if (!(len < best)) continue;
          bool walled = false;
          for (int k = walls - 1; k >= 0 && !walled; --k)
            walled = CornerGrid::crosses_cell(ax, ay, bx, by, wall_x[k], wall_y[k]);
          if (walled) continue;
          int wx = -2, wy = -2;  // -2: no cell reported (cells start at -1, the padding)
          if (cg.visible_or_blocker(ax, ay, bx, by, &wx, &wy)) {
            best = len;
            dsx = ax, dsy = ay, dgx = bx, dgy = by;
          } else if (wx != -2) {
            wall_x[walls] = wx;
            wall_y[walls++] = wy;
          }
        }
    }
    if (best < std::numeric_limits<double>::infinity()) {
      direct = true;
      if constexpr (!std::is_same_v<Cost, OctileCost>) direct_cost = best;
    }
  }
  double hf, h0;
  nodes.point(n, hf, h0);
  h0 = std::max(nodes.h_euclid(n, g), 1e-9);

  // The search, then the path as a chain of nodes (0..n-1, start n, goal n + 1).
  SearchOutcome out;
  std::vector<std::uint32_t> chain;
  Cost length{};
  // Theta*'s closed stamps are pool_d_'s search numbers, which the corners form's A* (Meet on
  // doubles) advances too: whichever search wraps them to 1 next, the old stamps go first.
  if (pool_d_.search_number() == ~std::uint32_t(0))
    for (ThetaNode& t : tn_) t.closed = 0;
  if constexpr (Theta) {
    ThetaProblem p;
    static_cast<Nodes&>(p) = nodes;
    p.pool = &pool_d_;
    p.direct = direct;
    p.direct_cost = direct_cost;
    p.h0 = h0;
    p.tn = tn_.data();
    p.memo = sight_memo_.data();
    p.memo_shift = sight_shift_;
    if (graph_.has_landmarks()) {
      p.landmarks = true;
      through_connections(gconn_, [&](std::uint32_t u) { return graph_.landmark_dist(u); }, p.lg);
    }
    out = with_listener(obs, [&](auto& l) {
      if constexpr (std::decay_t<decltype(l)>::kActive) l.observer()->phase("search");
      return best_first(p, pool_d_, open_, l, ctx);
    });
    r.stats.push_back({"goal-side subgoals", double(goal_side)});
    r.stats.push_back({"line-of-sight tests", double(p.los_tests)});
    r.stats.push_back({"of them settled by the cells at a corner", double(p.los_cells)});
    r.stats.push_back({"of them remembered from earlier queries", double(p.los_memo)});
    r.stats.push_back({"successors pruned (f above the goal's cost)", double(p.pruned)});
    if (out.stopped) {
      chain = pool_d_.chain(out.last);
      length = pool_d_.g_value(out.last);
    }
  } else {
    NodePool<Cost>& pool = [&]() -> NodePool<Cost>& {
      if constexpr (std::is_same_v<Cost, OctileCost>)
        return pool_oc_;
      else
        return pool_d_;
    }();
    Meet<Cost> p;
    static_cast<Nodes&>(p) = nodes;
    p.pool = &pool;
    p.m = n + 2;
    p.direct = direct;
    p.direct_cost = direct_cost;
    p.h0 = h0;
    if (graph_.has_cell_landmarks()) {
      p.landmarks = true;
      const auto dist = [&](std::uint32_t u) { return graph_.cell_landmark_dist(u); };
      through_connections(gconn_, dist, p.lg);
      through_connections(sconn_, dist, p.ls);
      // A landmark that reaches one endpoint and not the other (landmarks are picked in every
      // component): the endpoints lie in different components, so only the direct route could
      // join them. Its bound would be about kFar on one side, where f = g + h loses g to
      // rounding and the sides pop in no useful order (closed nodes were then improved, which
      // kClosedFinal promises never happens): the octile distance alone is kept.
      for (int l = 0; l < SubgoalGraph::kLandmarks; ++l)
        if ((p.lg[l] >= SubgoalGraph::kFar) != (p.ls[l] >= SubgoalGraph::kFar)) p.landmarks = false;
    }
    arc_.resize(std::size_t(p.node_bound()));
    p.arcs = arc_.data();
    out = with_listener(obs, [&](auto& l) {
      if constexpr (std::decay_t<decltype(l)>::kActive) l.observer()->phase("search");
      return best_first(p, pool, open_, l, ctx);
    });
    out.stopped = p.met;
    r.stats.push_back({"goal-side subgoals", double(p.backward_expanded)});
    r.stats.push_back({"successors pruned (f above the best meeting)", double(p.pruned)});
    if (p.met) {
      length = p.best;
      // The graph edge of an arc recorded at id, taken from its parent's subgoal (none from
      // an endpoint).
      const auto edge_of = [&](std::uint32_t id) {
        const std::uint32_t from = p.base(pool.parent(id));
        return arc_[id] == kNoNode || from >= n ? kNoNode : graph_.up_edge_index(from, arc_[id]);
      };
      if (p.meet == kNoNode) {
        chain = {n, n + 1};
        chain_edges_ = {kNoNode, kNoNode};
      } else {
        // Forwards from the start to the meeting node, then back down the backward side; with
        // each node the edge that joins it to the one before.
        chain_edges_.clear();
        for (std::uint32_t x = p.meet; x != p.root(); x = pool.parent(x)) {
          chain.push_back(p.base(x));
          chain_edges_.push_back(edge_of(x));
        }
        std::reverse(chain.begin(), chain.end());
        std::reverse(chain_edges_.begin(), chain_edges_.end());
        for (std::uint32_t c = p.meet + p.m, x = pool.parent(c); x != p.root();
             c = x, x = pool.parent(x)) {
          chain.push_back(p.base(x));
          chain_edges_.push_back(edge_of(c));
        }
      }
    }
  }
  r.stats.push_back({"start connections", double(sconn_.size())});
  r.stats.push_back({"goal connections", double(gconn_.size())});
  if (!take_outcome(out, r)) return r;
  r.length = cost_value(length);
  if (!corners) {
    // Refine: each high-level edge into its grid route (partitioning edges through the
    // subgoals they replace), as straight runs (two per base edge) into one buffer reused
    // across queries; the cells are written once, into the result.
    runs_.clear();
    for (std::size_t i = 1; i < chain.size(); ++i) {
      const std::uint32_t a = chain[i - 1], b = chain[i];
      int ax, ay, bx, by;
      nodes.vertex(a, ax, ay);
      nodes.vertex(b, bx, by);
      if (a < n && b < n && chain_edges_[i] != kNoNode)
        graph_.append_edge_route(a, b, chain_edges_[i], runs_);
      else if (ax != bx || ay != by)
        graph_.append_route(ax, ay, bx, by, runs_);
    }
    fill_cell_runs(r, s.x, s.y, runs_);
  } else {
    std::vector<Vec2> v{{s.px, s.py}};
    auto push = [&](double x, double y) {
      if (v.back().x != x || v.back().y != y) v.push_back({x, y});
    };
    for (std::size_t i = 1; i < chain.size(); ++i) {
      const std::uint32_t a = chain[i - 1], b = chain[i];
      if (a == nodes.start_node && b == nodes.goal_node) {
        if (dsx >= 0) {
          push(dsx, dsy);
          push(dgx, dgy);
        }
      } else if (a == nodes.start_node) {
        if (!s.vertex) push(scx_[b], scy_[b]);
      } else if (b == nodes.goal_node) {
        int ax, ay;
        nodes.vertex(a, ax, ay);
        push(ax, ay);
        // A goal inside a cell is reached along a connection, through one of its corners.
        if (!g.vertex && gmark_[a] == stamp_) push(gcx_[a], gcy_[a]);
      }
      if (b < n) push(graph_.x(b), graph_.y(b));
    }
    push(g.px, g.py);
    fill_polyline_path(r, v);
    r.length = cost_value(length);
  }
  if (obs) {
    obs->counter("expanded", double(r.expanded));
    obs->path(r.pieces);
    obs->frame();
  }
  return r;
}

PlanResult SubgoalSearch::answer(const GridMap& map, const Query& q, const SubgoalConfig& cfg,
                                 const RunContext& ctx) {
  const Stopwatch clock;
  PlanResult r;
  CapabilityMask cap = q.capability;
  if (cap == 0) cap = map.palette().movingai_default_capability();
  const bool anyangle = cfg.anyangle || cfg.theta;
  const int w = map.width(), h = map.height();
  if (!map.palette().uniform_costs()) {
    r.message = "subgoal graphs need uniform terrain costs (this palette gives terrains different costs; use astar)";
    r.time_ms = clock.ms();
    return r;
  }
  if (w + 1 > 65535 || h + 1 > 65535) {
    r.message = "subgoal graphs support maps up to 65534 cells a side";
    r.bad_query = true;
    r.time_ms = clock.ms();
    return r;
  }
  // Endpoints.
  Endpoint ep[2];
  const Pose* pts[2] = {&q.start, &q.goal};
  for (int i = 0; i < 2; ++i) {
    const Pose& pt = *pts[i];
    Endpoint& e = ep[i];
    e.px = pt.x;
    e.py = pt.y;
    if (anyangle && pt.x == std::floor(pt.x) && pt.y == std::floor(pt.y) && pt.x >= 0 && pt.y >= 0 &&
        pt.x <= w && pt.y <= h) {
      e.vertex = true;
      e.x = int(pt.x);
      e.y = int(pt.y);
      continue;
    }
    const auto c = cell_of(map, pt);
    if (!c) {
      r.message = outside_reason(map, q.start, q.goal);
      r.bad_query = true;
      r.time_ms = clock.ms();
      return r;
    }
    e.x = c->x;
    e.y = c->y;
    e.vertex = !anyangle;
    if (!anyangle) e.px = c->x + 0.5, e.py = c->y + 0.5;
  }
  const int levels = cfg.levels;
  if (map.uid() != map_uid_ || map.version() != map_version_ || cap != cap_ || levels != levels_ ||
      anyangle != anyangle_) {
    const Stopwatch prep;
    std::vector<std::uint8_t> blocked(std::size_t(w) * std::size_t(h));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        blocked[std::size_t(y) * std::size_t(w) + std::size_t(x)] = map.passable(x, y, cap) ? 0 : 1;
    added_.clear();
    graph_.build(anyangle ? SubgoalGraph::Form::Corners : SubgoalGraph::Form::Cells, w, h, blocked,
                 levels, [&](std::uint32_t a, std::uint32_t b, std::uint32_t via) { added_.emplace_back(a, b, via); });
    added_.shrink_to_fit();
    const std::size_t n = graph_.size();
    up_.assign(n, 0);
    gsm_.resize(n);
    reset_side_marks();
    gmark_.assign(n, 0);
    gw_.assign(n, 0);
    gcx_.assign(n, 0);
    gcy_.assign(n, 0);
    scx_.assign(n, 0);
    scy_.assign(n, 0);
    conn_at_.assign(n, 0);
    tn_.clear();
    if (anyangle) {
      for (std::uint32_t v = 0; v < n; ++v)
        tn_.push_back({float(graph_.x(v)), float(graph_.y(v)), 0.0, kNoNode, 0.0f, 0u});
      tn_.resize(n + 2, ThetaNode{0.0f, 0.0f, 0.0, kNoNode, 0.0f, 0u});  // the start and the goal
    }
    tn_.shrink_to_fit();
    // The sight memo: about 8 slots a subgoal (Aftershock's queries walk ~2 distinct pairs a
    // subgoal, brc202d's fewer than one), at least 2^10, at most 2^18 (2 MiB); none in the
    // cells form.
    sight_memo_.clear();
    sight_shift_ = 64;
    if (anyangle) {
      unsigned bits = 10;
      while (bits < 18 && (std::size_t(1) << bits) < 8 * std::size_t(n)) ++bits;
      sight_memo_.assign(std::size_t(1) << bits, 0);
      sight_shift_ = 64 - bits;
    }
    sight_memo_.shrink_to_fit();
    stamp_ = 0;
    pool_oc_.reset(n + 2);
    pool_d_.reset(n + 2);
    map_uid_ = map.uid();
    map_version_ = map.version();
    cap_ = cap;
    levels_ = levels;
    anyangle_ = anyangle;
    build_ms_ = prep.ms();
    r.prepare_ms = build_ms_;
  }
  const SubgoalGraph::BuildStats& bs = graph_.stats();
  r.stats.reserve(12);  // all of them (A*: 10, Theta*: 12): one allocation per query, not five
  r.stats.push_back({"subgoals", double(graph_.size())});
  r.stats.push_back({"edges (S_1)", double(bs.base_edges)});
  r.stats.push_back({"edges added by partitioning", double(bs.added_edges)});
  r.stats.push_back({"levels", double(bs.levels)});
  r.stats.push_back({"preprocessing ms", build_ms_});
  r.stats.push_back({"graph bytes", double(graph_.memory_bytes())});
  // Endpoints on blocked ground.
  for (int i = 0; i < 2; ++i) {
    const Endpoint& e = ep[i];
    const bool ok = e.vertex ? graph_.usable(e.x, e.y)
                             : map.passable(e.x, e.y, cap);
    if (!ok) {
      r.message = e.vertex && anyangle
                      ? std::string(i == 0 ? "start" : "goal") + " corner (" + std::to_string(e.x) + "," +
                            std::to_string(e.y) + ") has no open cell around it"
                      : blocked_reason(map, cap, 1, false, i == 0 ? "start" : "goal", CellXY{e.x, e.y});
      r.memory_bytes = memory_bytes();
      r.time_ms = clock.ms();
      return r;
    }
  }
  if (anyangle && cfg.theta)
    r = search<double, true>(ep[0], ep[1], ctx, std::move(r));
  else if (anyangle)
    r = search<double, false>(ep[0], ep[1], ctx, std::move(r));
  else
    r = search<OctileCost, false>(ep[0], ep[1], ctx, std::move(r));
  r.memory_bytes = memory_bytes();
  r.time_ms = clock.ms();
  return r;
}

PlanResult SubgoalSearch::run(const GridMap& map, const Query& q, const SubgoalConfig& cfg,
                              const RunContext& ctx) {
  PlanResult r = answer(map, q, cfg, ctx);
  // The cells form reproduces 8-connected optima; the corners form joins cell corners freely.
  r.metric = cfg.anyangle || cfg.theta ? PlanResult::Metric::AnyAngle : PlanResult::Metric::Grid8Optimal;
  return r;
}

namespace {

using SubgoalPlanner = GridWorldPlanner<SubgoalSearch, SubgoalConfig>;

void add_subgoal(Registry& r) {
  r.add({"subgoal", "subgoal graphs",
         "Subgoal graphs (Uras, Koenig & Hernandez 2013; Uras & Koenig 2014, 2015): subgoals at "
         "convex obstacle corners joined when direct-h-reachable, partitioned into levels; A* on "
         "the graph refined into an optimal 8-connected grid path, or (anyangle / theta) "
         "any-angle paths between cell corners. Preprocessing cached per map version. Uniform "
         "terrain costs only",
         true,
         {ParamDesc::choice("levels", "1: simple subgoal graph S_1; 2: two-level S_2; n: N-level S_N "
                                      "(partition until nothing more can be removed)",
                            {"1", "2", "n"}, "n")
              .labelled("graph levels"),
          ParamDesc::choice("search", "astar: A* on the graph; theta: Theta* on the graph "
                                      "(any-angle: implies anyangle=true)",
                            {"astar", "theta"}, "astar"),
          ParamDesc::boolean("anyangle", "corners form with Euclidean edges: any-angle paths between "
                                         "cell corners instead of optimal grid paths", "false")
              .labelled("any-angle"),
          circles_param()},
         [](const ParamSet& ps) {
           SubgoalConfig c;
           const std::string& l = ps.get("levels");
           c.levels = l == "n" ? 0 : std::stoi(l);
           c.theta = ps.get("search") == "theta";
           c.anyangle = ps.get_bool("anyangle");
           return std::make_unique<SubgoalPlanner>(GridWorld(ps), c);
         },
         AgentInputs(AgentInput::Capability)});
}

const PlannerRegistration kRegistration(42, add_subgoal);

}  // namespace

}  // namespace pl
