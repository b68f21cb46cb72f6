// Hybrid A* (Dolgov, Thrun, Montemerlo, Diebel 2008; issue 11 item 6): a search over continuous
// poses binned into cells x k headings. Each expansion drives three arcs of a fixed length (left,
// straight, right at the turning radius; with reversing three more backwards, at a cost factor,
// plus a gear-change penalty); a bin keeps the cheapest pose that reached it. Every few
// expansions, and at every expansion near the goal, a Dubins (Reeds-Shepp when reversing) shot
// to the goal pose ends the search when its swept footprint is clear. The heuristic is the
// maximum of the obstacle-free curve length and an obstacle-aware 2D distance (a resumable
// Dijkstra from the goal over the cells the agent's centre can occupy). docs/hybrid_astar.md.
//
// The agent is a disc of the query's radius; the turning radius and the reverse switch come from
// the query (the `reverse` parameter also turns reversing on). Registered as "hybrid-astar".
#pragma once

#include <memory>

#include "planners/planner.hpp"

namespace pl {

struct HybridAStarParams {
  enum class Heuristic { Max, Curve, Grid };
  int headings = 72;
  bool reverse = false;          // also reverse when the query's agent cannot
  Heuristic heuristic = Heuristic::Max;
  int shot_every = 8;            // an analytic shot every this many expansions (1 = always)
  int max_expansions = 200000;  // then give up: no path
  double turn_penalty = 0.05;    // added to every arc (map units)
  double steer_change_penalty = 0;    // added when the steering differs from the last move
  double reverse_cost = 2.0;     // cost factor of driving backwards
  double gear_penalty = 2.0;     // added at every change of direction (map units)
  double tolerance = 1e-2;       // arc collision: chords grown by at most this much
};

class HybridAStarPlanner final : public Planner {
 public:
  explicit HybridAStarPlanner(HybridAStarParams p = {});
  ~HybridAStarPlanner() override;
  PlanResult plan(const Scene& scene, const Query& query, const RunContext& ctx = {}) override;
  size_t memory_bytes() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pl
