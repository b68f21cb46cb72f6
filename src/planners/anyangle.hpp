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

#include "core/line_of_sight.hpp"
#include "core/search.hpp"
#include "planners/planner.hpp"

namespace pl {

class AnyAngleSearch {
 public:
  enum class Mode { CornerAStar, Theta, LazyTheta };

  PlanResult run(const GridMap& map, const Query& q, Mode mode, const RunContext& ctx);
  // The corner grid of the last query's map and capability.
  const CornerGrid& grid() const { return grid_; }
  std::size_t memory_bytes() const {
    return grid_.memory_bytes() + pool_.memory_bytes() + open_.memory_bytes();
  }

 private:
  struct Endpoint;
  template <Mode M>
  struct Problem;
  template <Mode M>
  PlanResult search(const Endpoint& s, const Endpoint& g, const RunContext& ctx);

  std::uint64_t map_uid_ = 0, map_version_ = ~std::uint64_t(0);
  CapabilityMask cap_ = 0;
  CornerGrid grid_;
  NodePool<double> pool_;
  OpenList<> open_;
};

}  // namespace pl
