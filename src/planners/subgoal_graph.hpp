// Subgoal graphs (Uras, Koenig & Hernandez 2013; Uras & Koenig 2014, 2015): the preprocessed
// structure behind the `subgoal` planner (subgoal.cpp). One graph type serves both forms:
//
//   Cells    vertices are the cells (8-connected, no corner cutting, octile edges): the
//            MovingAI model, whose optimal lengths the planner reproduces;
//   Corners  vertices are the cell corners of CornerGrid (a unit move is legal when its unit
//            segment is visible; a pinch corner may be left but never entered), Euclidean edges
//            for the any-angle variants.
//
// Both are an 8-connected "vertex grid" with a move mask per vertex, so everything below is
// written once. A vertex is a *subgoal* when, for some diagonal direction, both straight
// components are legal moves but the diagonal is not (a convex obstacle corner). Two vertices
// are *direct-h-reachable* when a grid path of octile length joins them and none of the
// shortest grid paths passes through a subgoal; the clearance-based dynamic programme
// (direct_h_reachable) finds every subgoal direct-h-reachable from a vertex, and the simple
// subgoal graph (S_1) joins every such pair.
//
// Partitioning (N-level graphs): each round visits the remaining subgoals and removes a subgoal
// when every pair of its remaining neighbours keeps its distance without it, adding an edge
// (a shortcut, remembered with the removed subgoal it replaces) where needed -- in the cells
// form only between h-reachable pairs (its length the octile distance), in the corners form
// only between pairs with line of sight (its length the Euclidean distance). Removed subgoals
// get the round's number as level; the rest get one more. The removal order is a contraction
// order, so a shortest path exists that only climbs in that order from either end: a query
// searches the subgoals reachable from its endpoints' connections by ascending edges plus the
// top level.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/line_of_sight.hpp"
#include "core/search.hpp"
#include "planners/grid_world.hpp"

namespace pl {

class SubgoalGraph {
 public:
  enum class Form { Cells, Corners };

  struct Edge {
    std::uint32_t to;
    std::uint32_t via;   // the removed subgoal a partitioning edge replaces, or kNoNode
    OctileCost oc;       // the octile length (cells form; for shortcuts the sum it replaces)
    double w;            // the edge's length: octile value (cells) or Euclidean (corners)
  };

  struct BuildStats {
    double subgoals_ms = 0, edges_ms = 0, partition_ms = 0;
    std::size_t base_edges = 0;       // undirected S_1 edges
    std::size_t added_edges = 0;      // undirected edges partitioning added
    std::size_t rejected_no_sight = 0;  // corners form: S_1 edges dropped for lack of sight
    int levels = 1;
  };

  // Builds from a row-major w x h mask (nonzero = blocked). max_levels: 1 = S_1, 2 = S_2, 0 =
  // partition until nothing more can be removed (S_N). `on_added` (optional) sees every edge
  // partitioning adds (a, b, via) as it is added.
  void build(Form form, int w, int h, std::span<const std::uint8_t> blocked, int max_levels,
             const std::function<void(std::uint32_t, std::uint32_t, std::uint32_t)>& on_added = {});

  Form form() const { return form_; }
  int vw() const { return vw_; }  // vertex grid size (cells: w x h; corners: (w+1) x (h+1))
  int vh() const { return vh_; }
  std::uint32_t size() const { return std::uint32_t(sx_.size()); }
  int x(std::uint32_t s) const { return sx_[s]; }
  int y(std::uint32_t s) const { return sy_[s]; }
  int level(std::uint32_t s) const { return level_[s]; }
  int top_level() const { return stats_.levels; }
  bool top(std::uint32_t s) const { return rank_[s] == kTopRank; }
  std::uint32_t rank(std::uint32_t s) const { return rank_[s]; }
  std::span<const Edge> edges(std::uint32_t s) const {
    return {edges_.data() + off_[s], edges_.data() + off_[s + 1]};
  }
  // The ascending edges of s (to higher ranks; from the top level: to the top level), the only
  // ones a query follows forwards, as parallel arrays: a search reads a target and a cost per
  // arc, 12 bytes, not a 24-byte Edge plus the target's rank.
  std::uint32_t up_begin(std::uint32_t s) const { return up_off_[s]; }
  std::uint32_t up_end(std::uint32_t s) const { return up_off_[s + 1]; }
  std::uint32_t up_to(std::uint32_t k) const { return up_to_[k]; }
  const OctileCost& up_oc(std::uint32_t k) const { return up_oc_[k]; }  // cells form
  double up_w(std::uint32_t k) const { return up_w_[k]; }                // corners form
  // The same arrays whole, for loops that keep the pointers in registers.
  const std::uint32_t* up_to_data() const { return up_to_.data(); }
  const OctileCost* up_oc_data() const { return up_oc_.data(); }
  const double* up_w_data() const { return up_w_.data(); }
  // Corners form: the ascending arcs into s from below the top level, reversed (sources and
  // lengths), so that Theta* can descend into the goal's side without building them per query.
  std::uint32_t down_begin(std::uint32_t s) const { return down_off_[s]; }
  std::uint32_t down_end(std::uint32_t s) const { return down_off_[s + 1]; }
  const std::uint32_t* down_from_data() const { return down_from_.data(); }
  const double* down_w_data() const { return down_w_.data(); }
  // The index (into edges(s)) of the edge behind arc k of s: ascending edges are a prefix.
  const Edge& up_edge(std::uint32_t s, std::uint32_t k) const {
    return edges_[off_[s] + (k - up_off_[s])];
  }
  // Corners form: graph distances from a few landmarks (subgoals picked farthest apart) to every
  // subgoal, kLandmarks floats per subgoal (kFar where a landmark's component does not
  // reach), for Theta*'s heuristic: on game maps the straight line to the goal ignores the walls
  // between, and the top level's search spread over most of the level.
  static constexpr int kLandmarks = 8;
  // The distance of a subgoal a landmark does not reach: finite, so that differences never
  // make NaN (two unreached give 0, one gives a bound that puts the node last).
  static constexpr float kFar = 1e30f;
  bool has_landmarks() const { return !lm_.empty(); }
  const float* landmark_dist(std::uint32_t s) const {
    return lm_.data() + std::size_t(s) * kLandmarks;
  }
  // Cells form: the same table in doubles, for the bidirectional A*'s bound. Its costs are
  // exact move counts, and distinct path lengths a few thousand long can differ by ~1e-4
  // (1393 - 985 sqrt 2), about a float's rounding at that size: doubles keep the bound below
  // the true distance and consistent to ~1e-12, far inside that gap.
  bool has_cell_landmarks() const { return !lmd_.empty(); }
  const double* cell_landmark_dist(std::uint32_t s) const {
    return lmd_.data() + std::size_t(s) * kLandmarks;
  }
  const BuildStats& stats() const { return stats_; }
  const CornerGrid& corners() const { return cg_; }  // corners form only
  std::size_t memory_bytes() const;

  // Vertex (x, y) may be stood on: cells form a free cell; corners form a corner with an open
  // cell around it (a pinch corner included: a path may start or end there).
  bool usable(int x, int y) const;
  // The subgoal at vertex (x, y), or kNoNode.
  std::uint32_t subgoal_at(int x, int y) const { return v_[pidx(x, y)].sub; }
  // Every subgoal direct-h-reachable from vertex (x, y) (which must be usable), with the octile
  // length of the way there: f(subgoal, length). skip: bit d leaves out the routes that start
  // with a move in direction d (0 E, 1 S, 2 W, 3 N, 4 SE, 5 SW, 6 NW, 7 NE); the runs still
  // bound the diagonals as before, so the rest is found exactly as without it.
  template <class F>
  void direct_h_reachable(int x, int y, F&& f, unsigned skip = 0) const;
  // Corners form, a point inside a cell joined to the cell's four corners c = dx + 2 dy (corner
  // (x + dx, y + dy)) by legs leg[c]: the skip mask for corner c's programme. A route from c
  // that starts toward another corner c' of the cell passes c', and from c' the programme finds
  // the same subgoal by a route shorter by at least 1 (straight: exactly 1; diagonal first:
  // |(a, b)| - |(a - 1, b - 1)| >= 1 for a, b >= 1), so when leg[c'] < leg[c] + 1 the route
  // through c' can never give the shortest connection (always so at the cell's centre, where
  // the legs are equal). A margin keeps rounding from turning a tie around.
  static unsigned cell_corner_skip(const double (&leg)[4], int c) {
    unsigned skip = 0;
    for (int o = 1; o <= 3; ++o) {  // across the row (c ^ 1), the column (c ^ 2), the diagonal
      if (!(leg[c ^ o] < leg[c] + 1.0 - 1e-6)) continue;
      const int mx = ((c ^ o) & 1) - (c & 1), my = ((c ^ o) >> 1) - (c >> 1);
      for (int d = 0; d < 8; ++d)
        if (kDx[d] == mx && kDy[d] == my) skip |= 1u << d;
    }
    return skip;
  }
  // A grid path of octile length from (x0, y0) to (x1, y1) through no subgoal and no blocked
  // vertex exists along the programme's canonical routes (diagonal moves first, then straight):
  // the endpoints are then joined directly.
  bool direct_route(int x0, int y0, int x1, int y1) const;
  // Appends the canonical route from a to b as (at most two) straight runs: diagonals first,
  // or straight first when only that order is legal (a pair found from b's side). Valid for a
  // direct-h-reachable pair (every S_1 edge).
  void append_route(int x0, int y0, int x1, int y1, std::vector<CellRun>& out) const;
  // Cells form: appends the route of edge e (an index into the edge array; its ends a and b,
  // walked from a), partitioning edges through the subgoals they replace, from tables made
  // with the graph (no edge search, no walk): the runs unpack + append_route would give.
  void append_edge_route(std::uint32_t a, std::uint32_t b, std::uint32_t e,
                         std::vector<CellRun>& out, int depth = 0) const;
  // The index of arc k of s (ascending arcs are a prefix of s's edges) in the edge array.
  std::uint32_t up_edge_index(std::uint32_t s, std::uint32_t k) const {
    return off_[s] + (k - up_off_[s]);
  }
  // Finds the edge s -> t (the shortest if several), or nullptr.
  const Edge* find_edge(std::uint32_t s, std::uint32_t t) const;

  static constexpr std::uint32_t kTopRank = 0xffffffffu;

 private:
  // Directions: 0 E, 1 S, 2 W, 3 N (cardinals), 4 SE, 5 SW, 6 NW, 7 NE.
  static constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
  static constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  // Cardinal components of diagonal 4 + i.
  static constexpr int kCa[4] = {0, 2, 2, 0};
  static constexpr int kCb[4] = {1, 1, 3, 3};

  std::size_t pidx(int x, int y) const {
    return std::size_t(y + 1) * std::size_t(pw_) + std::size_t(x + 1);
  }
  bool can(std::size_t p, int d) const { return (v_[p].moves >> d) & 1u; }
  bool is_sub(std::size_t p) const { return v_[p].sub != kNoNode; }
  // Whether the canonical route from (x0, y0) to (x1, y1) may take its diagonals first (else
  // straight first), and the runs of either order.
  bool diagonal_first(int x0, int y0, int x1, int y1) const;
  void emit_route(int x0, int y0, int x1, int y1, bool diagonal_first,
                  std::vector<CellRun>& out) const;
  void partition(int max_levels,
                 const std::function<void(std::uint32_t, std::uint32_t, std::uint32_t)>& on_added,
                 std::vector<std::vector<Edge>>& adj);

  Form form_ = Form::Cells;
  int w_ = 0, h_ = 0, vw_ = 0, vh_ = 0, pw_ = 2;
  std::ptrdiff_t off8_[8] = {};
  // Per padded vertex, in one record so that the programme's walks (vertical ones stride a row
  // per step) touch one cache line per vertex, not three arrays.
  struct Vertex {
    std::uint16_t clear[4];  // legal straight moves onto vertices that are not subgoals
    std::uint32_t sub;       // the subgoal here, or kNoNode
    std::uint8_t moves;      // bit d: the move in direction d is legal
  };
  std::vector<Vertex> v_;
  // Per diagonal direction 4 + q, what the programme's diagonal walk reads at a vertex, in
  // records laid out along the diagonals: a step is the next (SE, SW) or previous (NW, NE)
  // record, eight to a cache line, where v_ strides a row plus one per step (16 bytes, a new
  // line each step; the walks were the query's largest share of cache misses on Aftershock).
  // SE and NW share the order of the main diagonals, SW and NE that of the anti-diagonals.
  struct DiagStep {
    std::uint16_t ca, cb;  // clear[kCa[q]], clear[kCb[q]]
    std::uint8_t flags;    // kStepOn, kStepSub, kRunASub, kRunBSub
  };
  static_assert(sizeof(DiagStep) == 6);
  static constexpr std::uint8_t kStepOn = 1;   // the diagonal move is legal
  static constexpr std::uint8_t kStepSub = 2;  // the vertex is a subgoal
  static constexpr std::uint8_t kRunASub = 4;  // the clear run along kCa[q] ends at a subgoal
  static constexpr std::uint8_t kRunBSub = 8;  // the same along kCb[q]
  std::vector<DiagStep> dg_[4];
  // Where each line of either order starts: main diagonals by X - Y + (padded height - 1),
  // anti-diagonals by X + Y (X, Y padded coordinates).
  std::vector<std::uint32_t> dline_[2];
  std::size_t diag_index(int q, std::size_t p) const {
    const std::size_t X = p % std::size_t(pw_), Y = p / std::size_t(pw_);
    if ((q & 1) == 0) return dline_[0][X + std::size_t(vh_ + 1) - Y] + std::min(X, Y);
    const std::size_t c = X + Y, first_y = c > std::size_t(pw_ - 1) ? c - std::size_t(pw_ - 1) : 0;
    return dline_[1][c] + (Y - first_y);
  }
  void build_diagonal_steps();
  std::vector<std::int32_t> sx_, sy_;
  std::vector<std::uint32_t> spos_;      // subgoal -> padded index
  std::vector<std::uint8_t> level_;
  std::vector<std::uint32_t> rank_;
  std::vector<std::uint32_t> off_;
  std::vector<Edge> edges_;
  std::vector<std::uint32_t> up_off_, up_to_;
  std::vector<OctileCost> up_oc_;
  std::vector<double> up_w_;
  std::vector<std::uint32_t> down_off_, down_from_;
  std::vector<double> down_w_;
  std::vector<std::uint8_t>
      order_;  // per edge: bit 0 diagonals first from its list's end, bit 1 from `to`
  std::vector<std::uint32_t> halves_;  // per edge, two: the edges (source, via) and (via, to)
  std::vector<float> lm_;              // corners form: kLandmarks distances per subgoal
  std::vector<double> lmd_;            // cells form: kLandmarks distances per subgoal
  void build_landmarks(bool corners_form);
  CornerGrid cg_;
  BuildStats stats_;
};

// ---- the dynamic programme (a template: the query inlines its callback) ---------------------

template <class F>
void SubgoalGraph::direct_h_reachable(int x, int y, F&& f, unsigned skip) const {
  const std::size_t v = pidx(x, y);
  std::uint32_t maxc[4];
  // Straight: the subgoal that ends each clear run.
  for (int c = 0; c < 4; ++c) {
    const std::uint32_t n = v_[v].clear[c];
    maxc[c] = n;
    if ((skip >> c) & 1u) continue;
    const std::size_t last = v + std::size_t(std::ptrdiff_t(n) * off8_[c]);
    if (can(last, c) && is_sub(last + std::size_t(off8_[c])))
      f(v_[last + std::size_t(off8_[c])].sub, OctileCost{n + 1, 0});
  }
  // Diagonal: walk the diagonal; from each vertex on it the straight runs along both components,
  // each bounded by the shortest run so far (the parallelogram must stay free of obstacles and
  // of subgoals).
  for (int q = 0; q < 4; ++q) {
    if ((skip >> (4 + q)) & 1u) continue;
    const int d = 4 + q, a = kCa[q], b = kCb[q];
    std::uint32_t ma = maxc[a], mb = maxc[b];
    std::size_t p = v;
    std::uint32_t i = 0;
    // The walk reads dg_[q] (see DiagStep); v_ only for the subgoal a run or the walk ends at.
    const DiagStep* r = dg_[q].data() + diag_index(q, v);
    const std::ptrdiff_t step = kDy[d];
    while (r->flags & kStepOn) {
      r += step;
      p += std::size_t(off8_[d]);
      ++i;
      const DiagStep s = *r;
      if (s.flags & kStepSub) {
        f(v_[p].sub, OctileCost{0, i});
        break;
      }
      const std::uint32_t ja = s.ca;
      if (ja < ma) {
        if (s.flags & kRunASub)
          f(v_[p + std::size_t(std::ptrdiff_t(ja + 1) * off8_[a])].sub, OctileCost{ja + 1, i});
        ma = ja;
      }
      const std::uint32_t jb = s.cb;
      if (jb < mb) {
        if (s.flags & kRunBSub)
          f(v_[p + std::size_t(std::ptrdiff_t(jb + 1) * off8_[b])].sub, OctileCost{jb + 1, i});
        mb = jb;
      }
    }
  }
}

}  // namespace pl
