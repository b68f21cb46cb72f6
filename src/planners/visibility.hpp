// The exact any-angle planner (issue 12): A* on the visibility graph of the convex corners, on
// the shared machinery (core/search.hpp) with the exact line of sight of core/line_of_sight.hpp.
//
// Under the competition's rules (CornerGrid) a shortest any-angle path between two corners bends
// only at convex corners: corners where exactly one of the four cells around them is blocked (the
// map border counts as blocked, so no border corner is convex). A bend at a corner with two
// blocked cells side by side can be cut through the open half-plane, a corner with three is left
// the way it was entered, and a pinch corner (two diagonal blocked cells) may not be passed at
// all. At a convex corner v whose blocked cell lies in quadrant (qx, qy), both segments of a
// shortest path are tangent to that cell: the line through them does not cut the quadrant, i.e.
// dx * dy * qx * qy <= 0 (otherwise the bend can be cut short near v). So the graph keeps only
// the edges between mutually visible convex corners that are tangent at both ends ("taut"), and a
// query adds start and goal joined to every convex corner they see (tangent at the corner).
// Tested against a brute-force visibility graph over every corner on thousands of random maps.
//
// The graph (vertices, compact adjacency) is built once per map version and capability and
// reported as the planner's preparation (PlanResult::prepare_ms, stats "graph build ms",
// "graph memory bytes"). It holds O(n^2) edges in the worst case, so it is refused (no path, a
// message naming the limit) beyond kMaxConvex convex corners or kMaxEdges edges: no small file
// makes it allocate gigabytes.
//
// Query points: corners are vertices as they are. Any other point (a cell centre) joins the four
// corners of its cell by straight legs, as the other any-angle planners do (planners/anyangle.hpp).
//
// Registers `visibility` (PlannerRegistration, order 41).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/line_of_sight.hpp"
#include "core/search.hpp"
#include "planners/corner_world.hpp"
#include "planners/planner.hpp"

namespace pl {

class VisibilityGraphSearch {
 public:
  static constexpr std::size_t kMaxConvex = 40000;
  static constexpr std::size_t kMaxEdges = std::size_t(24) << 20;

  PlanResult run(const GridMap& map, const Query& q, const RunContext& ctx);
  std::size_t memory_bytes() const;

  // The graph of the last query's map (for tests and benchmarks).
  std::size_t convex_count() const { return vx_.size(); }
  std::size_t edge_count() const { return targets_.size(); }
  double build_ms() const { return build_ms_; }

 private:
  using Endpoint = CornerEndpoint;
  struct Problem;
  // Builds the graph; false when cancelled or over the limits (message_ says which).
  bool build(const RunContext& ctx);

  std::uint64_t map_uid_ = 0, map_version_ = ~std::uint64_t(0);
  CapabilityMask cap_ = 0;
  bool built_ = false;
  std::string refused_;  // why the graph was not built (limits), or empty
  double build_ms_ = 0;
  CornerGrid grid_;
  // Convex corners: coordinates, the sign qx * qy of their blocked cell's quadrant, and the
  // corner id -> convex index map (-1: not convex).
  std::vector<std::int32_t> vx_, vy_;
  std::vector<std::int8_t> quad_;
  std::vector<std::int32_t> index_;
  // Compact adjacency: the neighbours of convex vertex i are targets_[offsets_[i] .. offsets_[i+1]).
  std::vector<std::uint32_t> offsets_, targets_;
  // Per query: which targets (bit k: the k-th goal corner) convex vertex i sees, valid when
  // goal_stamp_[i] == stamp_.
  std::vector<std::uint32_t> goal_stamp_;
  std::vector<std::uint8_t> goal_bits_;
  std::uint32_t stamp_ = 0;
  NodePool<double> pool_;
  OpenList<> open_;
};

}  // namespace pl
