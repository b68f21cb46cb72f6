// Jump point search (Harabor & Grastien 2011), online, 8-connected without corner cutting: the
// same moves, costs and optimal lengths as `astar` (a diagonal move needs both side cells free),
// on the shared machinery (core/search.hpp) over the map's cells.
//
// Pruning for the no-corner-cutting rule: a diagonal move's natural successors are its two
// straight components and itself, and it has no forced neighbours (a diagonal move needs both
// side cells, so nothing can be reached around one); a straight move east from p to n keeps only
// east, except that a side cell of n (north, say) whose counterpart next to p is blocked cannot be
// reached from p diagonally: it is forced, and with it the diagonal north-east. Straight jumps
// stop at a cell with a forced side; diagonal jumps stop where a straight jump from the cell
// finds a jump point. Jumps are reported through the hook as segments (Role::Candidate marks)
// from the expanded cell to the jump point, and the stopping cells' forced sides as cell marks.
//
// Registers `jps` (PlannerRegistration, order 41).
#pragma once

#include <cstdint>
#include <vector>

#include "core/search.hpp"
#include "planners/planner.hpp"

namespace pl {

class JumpPointSearch {
 public:
  PlanResult run(const GridMap& map, const Query& q, const RunContext& ctx);
  std::size_t memory_bytes() const {
    return free_.capacity() + (rows_.capacity() + cols_.capacity()) * 8 + pool_.memory_bytes() + open_.memory_bytes();
  }

 private:
  struct Problem;
  std::uint64_t map_uid_ = 0, map_version_ = ~std::uint64_t(0);
  CapabilityMask cap_ = 0;
  int pw_ = 0;
  std::vector<std::uint8_t> free_;  // (w+2) x (h+2), 1 = the agent may stand there; border 0
  // The same cells as bits for the straight jumps' scans, 64 cells a word: a line per padded
  // row (rs_ words apart) and per padded column (cs_ words apart), each with a zero word at
  // both ends.
  std::vector<std::uint64_t> rows_, cols_;
  std::size_t rs_ = 0, cs_ = 0;
  NodePool<OctileCost> pool_;
  OpenList<> open_;
};

}  // namespace pl
