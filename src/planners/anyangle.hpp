// Any-angle search on the corner grid (issue 12): A* on corners, Theta* (Nash, Daniel, Koenig &
// Felner 2007) and Lazy Theta* (Nash, Koenig & Tovey 2010), on the shared machinery
// (core/search.hpp) with the exact line of sight of core/line_of_sight.hpp.
//
// Nodes are the (w+1) x (h+1) cell corners (NodeSpace::corners). The corner graph is
// 8-connected: a unit move is an edge when its unit segment is visible (a straight move needs an
// open cell beside its edge, a diagonal one an open cell to cross), cost 1 or sqrt 2. A corner
// where two blocked cells touch diagonally (CornerGrid::pinch) is never expanded unless it is
// the start: a path may end there but not pass through it.
//
// Query points: a point with integer coordinates is that corner. Any other point (a cell centre
// x+0.5, y+0.5 as MovingAI queries and the app's agents give) is an extra node joined by straight
// segments to the four corners of its cell (which must be open): the path leaves a cell centre
// for one of its cell's corners, and its length includes that leg. Both extra nodes are reported
// in a Points space after the corners ("query points").
//
// Registers corner-astar, theta and lazy-theta (PlannerRegistration, order 40).
#pragma once

#include <cstdint>
#include <vector>

#include "core/line_of_sight.hpp"
#include "core/search.hpp"
#include "planners/corner_world.hpp"
#include "planners/planner.hpp"

namespace pl {

// Daniel et al.'s post-smoothing (Algorithm 2, core/smoothing.hpp's greedy_smooth) with
// CornerGrid::visible as the test, on the corners of a path: a vertex is kept only when the last
// kept one cannot see the vertex after it. A query point that is not a corner keeps its leg.
// Updates r.length and adds the stats "length before smoothing" and "smoothing line-of-sight
// tests"; a watching observer sees a phase "post-smoothing" and the kept segments as tests.
void smooth_corner_path(const CornerGrid& grid, std::vector<Vec2>& pts, PlanResult& r,
                        SearchObserver* observer);

class AnyAngleSearch {
 public:
  enum class Mode { CornerAStar, Theta, LazyTheta };

  // smooth: the post-smoothing of Daniel et al. (Algorithm 2) on the path found, inside the
  // planner's time (smooth_corner_path below).
  PlanResult run(const GridMap& map, const Query& q, Mode mode, bool smooth, const RunContext& ctx);
  PlanResult run(const GridMap& map, const Query& q, Mode mode, const RunContext& ctx) {
    return run(map, q, mode, false, ctx);
  }
  // The corner grid of the last query's map and capability.
  const CornerGrid& grid() const { return grid_; }
  std::size_t memory_bytes() const {
    return grid_.memory_bytes() + pool_.memory_bytes() + open_.memory_bytes();
  }

 private:
  using Endpoint = CornerEndpoint;
  template <Mode M>
  struct Problem;
  template <Mode M>
  PlanResult search(const Endpoint& s, const Endpoint& g, bool smooth, const RunContext& ctx);

  std::uint64_t map_uid_ = 0, map_version_ = ~std::uint64_t(0);
  CapabilityMask cap_ = 0;
  CornerGrid grid_;
  NodePool<double> pool_;
  OpenList<> open_;
};

}  // namespace pl
