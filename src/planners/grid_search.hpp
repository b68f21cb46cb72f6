// Grid search on octile maps: A* (4- or 8-connected, octile heuristic, no corner cutting, ties
// toward larger g), Dijkstra, and Annotated A* (Harabor & Botea 2008: an agent of size s and
// capability c may stand at cell t iff true clearance(t, c) >= s; a diagonal move needs both
// cardinal side locations). Terrain move costs are honoured when the palette sets them.
//
// Runs on the shared machinery (core/search.hpp); this file is the grid's expansion policy: a
// padded passability byte grid (no bounds checks in the loop), moves as a bit mask computed
// without branches, g as exact counts of straight and diagonal moves when costs are uniform, and
// the next-pop slot. Node ids reported to observers are in the Cells space of the map.
// grid_search.cpp also registers the planners astar, dijkstra, annotated-astar and
// astar-textbook (PlannerRegistration): this file pair is the whole of them.
#pragma once

#include <cstdint>
#include <vector>

#include "core/clearance.hpp"
#include "core/search.hpp"
#include "planners/planner.hpp"

namespace pl {

class GridSearch {
 public:
  struct Options {
    bool eight_connected = true;
    bool heuristic = true;  // false = Dijkstra
    bool annotated = false; // passability through clearance >= size (else: terrain in capability)
    ClearanceMetric metric = ClearanceMetric::True;
  };

  PlanResult run(const GridMap& map, const Query& q, const Options& opt, const RunContext& ctx);
  size_t memory_bytes() const;

  // The padded passability grid for the last query's (capability, size): (w+2) x (h+2) bytes,
  // 1 = the agent may stand there. Exposed for tests and other planners (HAA* refinement).
  const std::vector<std::uint8_t>& passability() const { return pass_; }

 private:
  template <bool kUniform, bool kCellIds>
  struct Problem;
  // Builds the padded grid (and clearance) for this map and agent; false when cached.
  bool prepare(const GridMap& map, const Query& q, const Options& opt);
  // kCellIds: node ids are cell ids (watched runs, which report them as they are); otherwise
  // padded indices (unwatched runs: the passability bytes sit at the id itself).
  template <bool kUniform, bool kCellIds>
  PlanResult search(const GridMap& map, const Options& opt, CellXY s, CellXY g,
                    const RunContext& ctx);

  // Passability cache key.
  std::uint64_t map_uid_ = 0, map_version_ = ~std::uint64_t(0);
  CapabilityMask cap_ = 0;
  int size_ = 0;
  bool annotated_ = false;
  ClearanceMetric metric_ = ClearanceMetric::True;
  int pw_ = 0, ph_ = 0;  // padded width and height
  std::vector<std::uint8_t> pass_;
  std::vector<float> cost_;  // per padded cell move-cost multiplier (only with non-uniform costs)
  bool uniform_ = true;
  double min_cost_ = 1.0;

  ClearanceCache clearance_;
  // The search machinery (core/search.hpp) over padded indices, or cell ids when watched (a
  // switch between the two resizes the pool): g as exact move counts with uniform costs, as
  // weighted doubles otherwise.
  NodePool<OctileCost> exact_pool_;
  NodePool<double> weighted_pool_;
  OpenList<> open_;
};

// The plain textbook A* the benchmarks compare against: std::priority_queue with lazy deletion,
// arrays allocated and reset for every query, bounds checks on every neighbour. Same moves and
// lengths as GridSearch; kept as a reference, not for use.
// Reports to `observer` when one is given (a plain null check per event, as a textbook would).
PlanResult textbook_astar(const GridMap& map, const Query& q, bool eight_connected,
                          SearchObserver* observer = nullptr);

}  // namespace pl
