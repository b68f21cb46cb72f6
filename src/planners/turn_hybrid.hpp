// Pinter's hybrid planner (Pinter 2001, "Performance and Hybrid Solutions"; issue 11 item 5),
// registered as `hybrid`:
//
//   0. fail fast: 4-connected components of the cells the capability may enter (cached per map
//      and capability); start and goal in different components -> no path, before any search;
//   1. 4-connected grid A* on the moves the footprint fits along; no path -> failure;
//   2. Smoothing-48 forward along it (DirectionalSearch::along); success -> step 6;
//   3. Smoothing-48 backward, from the goal facing back along the path;
//   4. the farthest points both passes reached, a and b: more than 12 cells apart in x or y ->
//      alternating sections (beyond the article, as it suggests): Directional-8 from the
//      chain's pose two Smoothing-48 poses before where it stopped to the farthest path cell
//      within 12, then Smoothing-48 on, until the chain reaches the goal or comes within 12 of
//      the backward pass (a chain that gets past the backward pass goes on to the goal);
//      then both step back along their own pose lists while they stay at most 12 apart;
//   5. Directional-8 between the two poses, the three parts joined. A section no forward
//      search repairs (e.g. a start facing a wall with no room to turn) is searched once more
//      with reversing edges (twice the cost); failing that -> failure;
//   6. the simple smoothing pass with curved Walkable (Dubins curve between poses clear), after
//      the last reversed edge only; reversed pieces carry `reverse`.
// Every joint is checked again at the end: the planner returns a legal path (footprint and
// turning radius, which `validate` confirms) or reports failure, never an illegal path. Which
// stage produced each part is in stats ("forward poses", "directional poses", "backward poses")
// and in the message, and shown to the hook as one polyline per stage (Role::Highlight, tag =
// stage: 0 forward, 1 Directional-8, 2 backward). Start and goal are their cells' centres
// facing the nearest of 8 headings (Smoothing-48's); the goal heading may be free.
#pragma once

#include <cstdint>
#include <vector>

#include "core/search.hpp"
#include "planners/directional.hpp"
#include "planners/turn_postprocess.hpp"
#include "planners/planner.hpp"

namespace pl {

class TurnHybrid {
 public:
  struct Options {
    bool square = false;  // footprint: square of the agent's size, else disc of its radius
    bool goal_heading_free = false;
    int window = 12;      // the largest section Directional-8 repairs (cells in x or y)
  };
  PlanResult run(const GridMap& map, const Query& q, const Options& opt, const RunContext& ctx);
  size_t memory_bytes() const {
    return grid_.memory_bytes() + directional_.memory_bytes() + repair_.memory_bytes() +
           labels_.capacity() * sizeof(std::int32_t);
  }

 private:
  // 4-connected component labels of the passable cells (-1 = blocked), rebuilt on change.
  const std::vector<std::int32_t>& components(const GridMap& map, CapabilityMask cap);

  // The 4-connected A* with the footprint (astar-turns' search, no smoothing, no turns).
  TurnPostprocess grid_;
  DirectionalSearch directional_;  // Smoothing-48 (Directional-48 tables)
  DirectionalSearch repair_;       // Directional-8 (its own tables, so neither is rebuilt)
  std::vector<std::int32_t> labels_;
  std::uint64_t uid_ = 0, version_ = ~std::uint64_t(0);
  CapabilityMask cap_ = 0;
};

}  // namespace pl
