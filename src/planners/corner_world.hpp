// What the corner planners (corner A*, Theta*, Lazy Theta*, Block A*, the visibility graph) share:
// their query points and the node ids over a CornerGrid's corners. Node ids 0..ncorners-1 are the
// corners (row by row, w1 to a row); ncorners is the start point and ncorners + 1 the goal point
// when they are not corners themselves.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/line_of_sight.hpp"
#include "core/search.hpp"
#include "planners/planner.hpp"

namespace pl {

// A query point: a corner, or a point inside (or on the edge of) cell (x, y).
struct CornerEndpoint {
  bool corner = true;
  int x = 0, y = 0;  // the corner, or the cell when !corner
  double px = 0, py = 0;
};

// The query's start and goal as endpoints of a w x h map's corners: corners as they are, other
// points inside the map by their cell. False, with r.message and r.bad_query set, when one lies
// outside [0,w] x [0,h].
bool corner_endpoints(const GridMap& map, const Query& query, CornerEndpoint ep[2], PlanResult& r);
// False, with r.message saying why and the blocked cell shown to a watching observer, when an
// endpoint that is not a corner lies in a blocked cell of grid (built from map for cap).
bool corner_endpoints_free(const GridMap& map, CapabilityMask cap, const CornerGrid& grid,
                           const CornerEndpoint ep[2], PlanResult& r, SearchObserver* observer);

// The node-space part every corner Problem has the same: endpoints, node ids, positions, the
// f/h evaluation from the Problem's own heuristic(x, y), progress, stop and the viewer's
// descriptions. Problem derives from CornerNodes<Problem>.
template <class Problem>
struct CornerNodes {
  int w1 = 0;                   // corners per row
  std::uint32_t ncorners = 0;   // ids >= ncorners: the query points (start, then goal)
  std::uint32_t start_node = 0, goal_node = 0;
  CornerEndpoint s, g;
  double h0 = 1;

  // The endpoints and their node ids on grid (h0 is the caller's: it needs the heuristic).
  void set_endpoints(const CornerGrid& grid, const CornerEndpoint& from, const CornerEndpoint& to) {
    w1 = grid.width() + 1;
    ncorners = grid.corner_count();
    s = from;
    g = to;
    start_node = s.corner ? grid.corner_id(s.x, s.y) : ncorners;
    goal_node = g.corner ? grid.corner_id(g.x, g.y) : ncorners + 1;
  }

  void point(std::uint32_t n, double& x, double& y) const {
    if (n < ncorners) {
      x = double(n % std::uint32_t(w1));
      y = double(n / std::uint32_t(w1));
    } else if (n == ncorners) {
      x = s.px;
      y = s.py;
    } else {
      x = g.px;
      y = g.py;
    }
  }

  std::uint32_t start() const { return start_node; }
  std::size_t node_bound() const { return std::size_t(ncorners) + 2; }
  void evaluate(std::uint32_t, const double& gv, double& f, double& h, int x, int y) const {
    h = self().heuristic(double(x), double(y));
    f = gv + h;
  }
  void evaluate(std::uint32_t n, const double& gv, double& f, double& h) const {
    double x, y;
    point(n, x, y);
    h = self().heuristic(x, y);
    f = gv + h;
  }
  float progress(const OpenEntry& top) const {
    return float(std::clamp(1.0 - double(top.h) / h0, 0.0, 1.0));
  }
  bool stop(std::uint32_t n) const { return n == goal_node; }

  std::uint32_t id(std::uint32_t n, int, int) const { return n; }
  std::uint32_t id(std::uint32_t n) const { return n; }
  NodeDesc desc(std::uint32_t n, int x, int y) const {
    NodeDesc d;
    d.id = n;
    d.x = float(x);
    d.y = float(y);
    return d;
  }
  NodeDesc desc(std::uint32_t n) const {
    NodeDesc d;
    d.id = n;
    double x, y;
    point(n, x, y);
    d.x = float(x);
    d.y = float(y);
    if (n == ncorners) d.label = "start point";
    else if (n > ncorners) d.label = "goal point";
    return d;
  }

 private:
  const Problem& self() const { return static_cast<const Problem&>(*this); }
};

}  // namespace pl
