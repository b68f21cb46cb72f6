// Grid search on octile maps: A* (4- or 8-connected, octile heuristic, no corner cutting, ties
// toward larger g), Dijkstra, and Annotated A* (Harabor & Botea 2008: an agent of size s and
// capability c may stand at cell t iff true clearance(t, c) >= s; a diagonal move needs both
// cardinal side locations). Terrain move costs are honoured when the palette sets them.
//
// Speed follows Warthog: a padded passability byte grid (no bounds checks in the loop), a node
// pool and binary heap allocated once and reused across queries (a per-search number marks stale
// nodes instead of clearing), and the observer compiled out of the loop when none is attached.
#pragma once

#include <cstdint>
#include <vector>

#include "core/clearance.hpp"
#include "planners/planner.hpp"

namespace pl {

// Cell centres -> PlanResult points (heading toward the next point) and straight pieces, with
// collinear steps merged into one piece. Shared by every planner that returns grid paths.
void fill_cell_path(PlanResult& r, const std::vector<Vec2>& cells);

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
  // 16 bytes. With uniform costs g is kept exactly as counts of straight and diagonal moves
  // (see search()); weighted g lives in gw_. Heap positions live in their own dense array:
  // the heap rewrites them on every sift, and 4-byte entries keep those writes in cache.
  struct Node {
    std::uint32_t gs, gd;  // straight and diagonal moves on the best known path
    std::uint32_t parent;  // padded index
    std::uint32_t search;  // search number that last touched this node
  };
  static constexpr std::int32_t kNotQueued = -1;
  static constexpr std::int32_t kClosed = -2;
  static constexpr std::int32_t kInSlot = -3;
  // 16 bytes. Among equal f, the smaller h (= the larger g) comes first.
  struct HeapEntry {
    double f;
    float h;
    std::uint32_t node;
  };

  void prepare(const GridMap& map, const Query& q, const Options& opt);
  template <class Obs, bool kUniform>
  PlanResult search(const GridMap& map, const Query& q, const Options& opt, const RunContext& ctx,
                    Obs obs);

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
  std::vector<Node> nodes_;
  // Per padded cell, valid when the node's search number is current: >= 0 position in the
  // heap; kNotQueued; kClosed; kInSlot.
  std::vector<std::int32_t> pos_;
  std::vector<double> gw_;  // weighted g per padded cell (non-uniform move costs only)
  // Open list: a 4-ary heap with lazy deletion (a better path pushes a new entry; entries of
  // closed nodes are skipped when popped), so no heap positions are written into the pool.
  std::vector<HeapEntry> heap_;
  std::uint32_t search_id_ = 0;
};

// The plain textbook A* the benchmarks compare against: std::priority_queue with lazy deletion,
// arrays allocated and reset for every query, bounds checks on every neighbour. Same moves and
// lengths as GridSearch; kept as a reference, not for use.
// Reports to `observer` when one is given (a plain null check per event, as a textbook would).
PlanResult textbook_astar(const GridMap& map, const Query& q, bool eight_connected,
                          SearchObserver* observer = nullptr);

}  // namespace pl
