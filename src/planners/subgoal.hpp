// The `subgoal` planner (issue 12): simple, two-level and N-level subgoal graphs (Uras, Koenig &
// Hernandez 2013; Uras & Koenig 2014) and their any-angle variants (Uras & Koenig 2015), on the
// shared machinery (core/search.hpp) over the graph of planners/subgoal_graph.hpp.
//
//   anyangle=false  cells form: 8-connected octile moves without corner cutting, octile edges,
//                   A* on the graph, the high-level path refined into a grid path: the optimal
//                   lengths of `astar` (every MovingAI scenario problem, every level count).
//   anyangle=true   corners form: Euclidean edges, A* or Theta* (search=theta) on the graph,
//                   the high-level path returned as it is (every edge has line of sight).
//
// A query connects start and goal to their direct-h-reachable subgoals (and to each other when
// a direct route joins them) and searches what both ends reach by ascending edges together with
// the top level: A* bidirectionally (both ends climb, they meet), Theta* forwards, descending
// into the goal's ascending set by its reversed edges. The graph is built once per map version,
// capability, form and level count (like HAA*'s abstraction); PlanResult::prepare_ms and the
// stats report its cost.
//
// Registers `subgoal` (PlannerRegistration, order 42).
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "core/search.hpp"
#include "planners/planner.hpp"
#include "planners/subgoal_graph.hpp"

namespace pl {

struct SubgoalConfig {
  int levels = 0;          // 1, 2, or 0 = N (partition until nothing more can be removed)
  bool theta = false;      // Theta* on the graph (any-angle only)
  bool anyangle = false;   // corners form, Euclidean edges
};

class SubgoalSearch {
 public:
  PlanResult run(const GridMap& map, const Query& q, const SubgoalConfig& cfg, const RunContext& ctx);
  const SubgoalGraph& graph() const { return graph_; }
  std::size_t memory_bytes() const;

  // A query endpoint: a vertex of the graph's grid, or (any-angle) a point inside a cell joined
  // to the cell's corners.
  struct Endpoint {
    bool vertex = true;
    int x = 0, y = 0;        // the vertex, or the cell
    double px = 0, py = 0;   // where the path starts / ends, map units
  };
  // A connection of an endpoint to a subgoal: its length and the corner the leg goes through
  // (-1: none, the endpoint is a vertex).
  struct Conn {
    std::uint32_t sub;
    double w;
    OctileCost oc;
    int cx, cy;  // the endpoint's vertex it leaves from
  };

 private:
  PlanResult answer(const GridMap& map, const Query& q, const SubgoalConfig& cfg, const RunContext& ctx);
  struct Nodes;
  template <class Cost>
  struct Meet;
  struct ThetaProblem;
  template <class Cost, bool Theta>
  PlanResult search(const Endpoint& s, const Endpoint& g, const RunContext& ctx, PlanResult r);
  void connect(const Endpoint& e, std::vector<Conn>& out);
  void report_graph(SearchObserver* o) const;

  std::uint64_t map_uid_ = 0, map_version_ = ~std::uint64_t(0);
  CapabilityMask cap_ = 0;
  int levels_ = -1;
  bool anyangle_ = false;
  double build_ms_ = 0;
  SubgoalGraph graph_;
  std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> added_;  // for watching
  // Per query, indexed by subgoal, valid when the stamp matches.
  std::vector<std::uint32_t> up_, gmark_;
  // Theta*, per subgoal: side == stamp_ on the goal's side (its ascending set below the top
  // level; kTopSide for good on top-level subgoals); pred == stamp_ when a goal-side subgoal
  // has an ascending arc into it (the only subgoals with reversed arcs to follow down).
  // Stamps stay below kTopSide.
  struct SideMark {
    std::uint32_t side, pred;
  };
  static constexpr std::uint32_t kTopSide = 0xffffffffu;
  std::vector<SideMark> gsm_;
  void reset_side_marks();
  std::vector<double> gw_;
  // Theta* on the graph (corners form, lazy), per node (subgoals, start, goal): the vertex,
  // and per query the best cost and predecessor over real graph edges (the fallback when the
  // grandparent the node hangs from turns out not to see it), the heuristic and whether it was
  // expanded. One record, so that an arc's successor costs one cache line here, and an arc
  // into an expanded node nothing else (the pool's g and position are two more lines).
  struct ThetaNode {
    float x, y;  // exact: coordinates are below 2^16
    double rg;
    std::uint32_t rpar;
    float h;  // the heuristic, set when the node is first reached in a search
    std::uint32_t closed;  // the pool's search number when the node was last expanded
  };
  static_assert(sizeof(ThetaNode) == 32);
  std::vector<ThetaNode> tn_;
  // Theta*: line of sight between two subgoals, remembered for the graph's map version (a
  // direct-mapped table; entry = the pair, a valid bit and the answer). The lazy tests repeat
  // the same pairs from query to query: all of brc202d's scenario queries walk 2,728 distinct
  // pairs, Aftershock's 14,148, against ~64 and ~180 walks a query.
  std::vector<std::uint64_t> sight_memo_;
  unsigned sight_shift_ = 64;
  std::vector<std::int32_t> gcx_, gcy_, scx_, scy_;
  std::vector<std::uint32_t> conn_at_;
  std::uint32_t stamp_ = 0;
  std::vector<Conn> sconn_, gconn_;
  std::vector<CellRun> runs_;  // the refined path, reused across queries
  // A* on the graph: per node id the ascending arc that reached it; the path's graph edges.
  std::vector<std::uint32_t> arc_, chain_edges_;
  std::vector<std::uint32_t> stack_;
  NodePool<OctileCost> pool_oc_;
  NodePool<double> pool_d_;
  OpenList<> open_;
};

}  // namespace pl
