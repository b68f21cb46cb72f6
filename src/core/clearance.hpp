// Clearance: how much room an agent has at each cell, per terrain capability.
// - True clearance (Harabor & Botea 2008): the side of the largest square whose upper-left cell
//   is t and that holds only terrains of the capability, bounded by the map edge; 0 when t itself
//   is not in the capability. A size-s agent may stand at t iff clearance(t) >= s.
// - Brushfire (minimum obstacle distance, 8-neighbourhood): cells next to an obstacle or the map
//   edge get 1, their free neighbours 2, and so on; obstacles get 0. Kept for comparison: it
//   underestimates room in bottlenecks (Harabor's article, figure 5).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "core/grid.hpp"

namespace pl {

enum class ClearanceMetric { True, Brushfire };

using ClearanceGrid = std::vector<std::uint16_t>;  // row-major, width * height

// Linear time: clearance(x, y) = 1 + min(right, down, down-right), filled bottom-up.
ClearanceGrid true_clearance(const GridMap& map, CapabilityMask cap);
// Linear time: a breadth-first wavefront from obstacles and the map edge.
ClearanceGrid brushfire_clearance(const GridMap& map, CapabilityMask cap);
ClearanceGrid compute_clearance(const GridMap& map, CapabilityMask cap, ClearanceMetric metric);

// Per-capability cache, invalidated when the map (uid, version) changes.
class ClearanceCache {
 public:
  const ClearanceGrid& get(const GridMap& map, CapabilityMask cap,
                           ClearanceMetric metric = ClearanceMetric::True);
  void clear() { grids_.clear(); }
  size_t memory_bytes() const;

 private:
  std::uint64_t uid_ = 0, version_ = 0;
  std::map<std::pair<CapabilityMask, int>, ClearanceGrid> grids_;
};

}  // namespace pl
