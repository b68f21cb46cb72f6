// Block A* (Yap, Burch, Holte & Schaeffer 2011) on the corner grid, 5x5 blocks as in Uras &
// Koenig's comparison (issue 12), on the shared machinery (core/search.hpp).
//
// The map is cut into 5x5-cell blocks (the last row and column padded with blocked cells). The
// local distance database (LDDB) holds, for a block's obstacle pattern (25 bits), the exact
// any-angle distance inside the block between every pair of its 20 boundary corners: Dijkstra on
// the visibility graph of the block's 36 corners with CornerGrid::visible on the block alone,
// every cell outside it counted as blocked. That is conservative (a segment visible in the block
// alone is visible in the map, a corner that is a pinch in the map is one in the block), so
// every path is legal under the full map's rules. An entry is computed the first time a pattern
// is met and kept for every later map: the LDDB is built once, not per query (stats: patterns,
// new ones for this map, memory).
//
// The search: A* whose nodes are the corners on block boundaries (NodeSpace::corners ids, so the
// viewer draws them on the grid), a node's successors the other boundary corners of every block
// it lies on at their LDDB distance, Euclidean heuristic. Yap et al. expand a whole block at a
// time (the block's updated ingress corners together); here the unit is one boundary corner,
// which searches the same graph with the same distances. A start or goal corner inside a block
// joins that block's boundary (and the other, if they share a block) by a local Dijkstra; a point
// that is not a corner joins the corners of its cell by straight legs as in the other any-angle
// planners. The path between two consecutive boundary corners is rebuilt from the block's local
// search. Not optimal: paths bend only where they cross block boundaries or inside blocks.
//
// Registers `block-astar` (PlannerRegistration, order 42), with `smoothing` (post-smoothing,
// planners/anyangle.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/line_of_sight.hpp"
#include "core/search.hpp"
#include "planners/corner_world.hpp"
#include "planners/planner.hpp"

namespace pl {

class BlockAStarSearch {
 public:
  static constexpr int kB = 5;                     // block side in cells
  static constexpr int kC = kB + 1;                // block side in corners
  static constexpr int kBoundary = 4 * kB;         // boundary corners of a block
  static constexpr std::size_t kMaxPatterns = 40000;  // LDDB entries kept (~90 MB at most)

  PlanResult run(const GridMap& map, const Query& q, bool smooth, const RunContext& ctx);
  std::size_t memory_bytes() const;
  std::size_t lddb_patterns() const { return lddb_.size(); }

  // A block's corners, local ids ly * kC + lx: the visibility graph of the block alone and its
  // shortest paths (Dijkstra, no turn at a pinch corner other than the source).
  struct Local {
    CornerGrid grid;
    std::array<std::uint64_t, kC * kC> vis{};  // bit j of vis[i]: local corner j seen from i
    explicit Local(std::uint32_t pattern);
    void shortest(int src, double* dist, int* parent) const;
  };

 private:
  using Endpoint = CornerEndpoint;
  struct Problem;
  // The LDDB entry of a pattern: the distance between boundary corners i < j (tri(i, j)), and
  // per boundary corner i the parent of every local corner on the shortest paths from i.
  struct Entry {
    std::array<double, kBoundary * (kBoundary - 1) / 2> dist;
    std::array<std::array<std::int8_t, kC * kC>, kBoundary> parent;
  };
  bool prepare(const GridMap& map, CapabilityMask cap, PlanResult& r);
  bool blocked_or_outside(int x, int y) const;
  std::uint32_t pattern(int bx, int by) const;

  std::uint64_t map_uid_ = 0, map_version_ = ~std::uint64_t(0);
  CapabilityMask cap_ = 0;
  CornerGrid grid_;
  int bw_ = 0, bh_ = 0;                     // blocks per row and column
  std::vector<std::uint32_t> block_entry_;  // LDDB entry of each block
  std::vector<std::uint32_t> block_pattern_;
  std::string refused_;
  // The LDDB: pattern -> entry, kept across maps.
  std::unordered_map<std::uint32_t, std::uint32_t> lddb_index_;
  std::vector<Entry> lddb_;
  NodePool<double> pool_;
  OpenList<> open_;
};

}  // namespace pl
