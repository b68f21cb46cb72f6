// Directional A* (Pinter 2001, "Toward More Realistic Pathfinding", section "Legal Turns: The
// Directional A* Algorithm"; issue 11 item 4): A* over cells x headings for a vehicle with a
// turning radius and a footprint. An edge joins (cell, heading) to a cell 1, 2 or 3 rings away
// (Directional-8, -24, -48) at any of the k headings (8 or 16) by the shortest Dubins curve
// between the two poses (cell centres), and is legal only when the footprint swept along the
// curve overlaps no blocked cell. Which cells each (start heading, end heading, offset) curve
// sweeps is computed once per (k, neighbours, turning radius, footprint, Dubins words) and kept
// (Pinter's hit-check table, generalised from his 11x11 masks to any agent): a search looks the
// cells up and tests them against the map.
//
// The start pose may be anywhere in its cell at any angle: the start's edges are computed
// exactly (no table). The goal is the goal cell's centre, facing the goal heading rounded to the
// nearest of the k headings ("fixed"), or facing anywhere ("free").
//
// Heuristics (both measured in docs/directional.md):
//   article  the shortest arc-then-line from the node's pose to the goal point (Pinter's
//            heuristic; computed per node and cached, not from his 20 KB table);
//   max      the maximum of the obstacle-free curve length (Dubins to the goal pose, or
//            arc-then-line for a free goal heading) and an obstacle-aware 2D distance (octile
//            Dijkstra from the goal over the cells the capability may enter), as Hybrid A*
//            planners do. Neither is admissible in every case (the octile distance exceeds the
//            Euclidean one by up to 8%; the arc-then-line is not the shortest way to a point
//            inside both turning circles), so the planner is not optimal even on its own graph.
// Costs: curve length times the mean terrain cost of the two end cells, plus `turn_penalty`
// per radian turned.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/curves.hpp"
#include "core/footprint.hpp"
#include "core/search.hpp"
#include "planners/planner.hpp"

namespace pl {

class DirectionalSearch {
 public:
  enum class Heuristic : std::uint8_t { Article, Max };
  struct Options {
    int headings = 8;     // 8 or 16
    int neighbours = 24;  // 8, 24 or 48 (rings 1, 2, 3)
    Heuristic heuristic = Heuristic::Max;
    bool goal_heading_free = false;
    double turn_penalty = 0;  // extra cost per radian turned
    bool square = false;      // footprint: square of side query.size; else disc of query.radius
    DubinsWords words = DubinsWords::All;
    // Reversing (Pinter's "additional eight reverse directions"): an edge may also be driven
    // backwards, its curve the forward curve between the poses turned round, its cost times
    // `reverse_penalty`. Agent: when the query's agent can reverse.
    enum class Reverse : std::uint8_t { Agent, No, Yes } reverse = Reverse::Agent;
    double reverse_penalty = 2;
    // Issue 11 item 8: show one hit-check mask on request. When set, a watched run first reports
    // a phase with the table entry (start heading `mask_from` -> end heading `mask_to`, offset
    // (mask_dx, mask_dy)) placed at the start cell: its curve, the cells it marks as hit and
    // its two poses. Heading indices are taken modulo the heading count.
    bool show_mask = false;
    int mask_from = 0, mask_to = 1, mask_dx = 2, mask_dy = 1;
    // > 0: search only the cells within this many cells (in x and y) of the rectangle spanned
    // by the start and goal cells, heuristic included (the hybrid planner's repairs of one
    // section: a search over the whole map per section would cost more than the section).
    int box = 0;
  };

  // One table entry: the curve from (0.5, 0.5, start heading) to the offset cell's centre at
  // the end heading, its cost parts and the cells it sweeps (relative to the start cell).
  struct Edge {
    Curve curve;
    double length = 0;
    double turn = 0;  // radians turned
    int dx = 0, dy = 0, to_heading = 0;
    std::uint32_t first = 0, count = 0;  // into cells_ (relative cells) and offs_ (padded offsets)
  };

  PlanResult run(const GridMap& map, const Query& q, const Options& opt, const RunContext& ctx);

  // Pinter's Smoothing-48 pre-smoothing pass ("A Better Smoothing Pass"): a Directional-48
  // search whose nodes are only the cells of `path` (a grid path, consecutive cells adjacent)
  // x 8 headings, each node's neighbours the path cells 1, 2 and 3 steps ahead, h the remaining
  // length along the path (favouring the path's direction). It gives up as soon as it closes a
  // node six or more path points behind the farthest it has reached. Starts at path[0]'s centre
  // facing `start_heading` (rounded to the nearest of 8); ends on the last cell facing
  // `goal_heading` (rounded), or any heading when it is NaN. Uses q's turning radius, footprint
  // and capability as run() does (footprint: square when `square`).
  struct AlongResult {
    bool found = false;
    std::vector<Pose> poses;     // the poses kept, start first (cell centres, headings); on
                                 // failure the chain to the first node closed at `farthest`
    std::vector<std::size_t> indices;  // the path index of each pose
    std::size_t farthest = 0;    // index of the farthest path cell reached
    std::uint64_t expanded = 0;
    std::string message;
  };
  AlongResult along(const GridMap& map, const Query& q, bool square, const std::vector<CellXY>& path,
                    double start_heading, double goal_heading, const RunContext& ctx);
  // Whether the shortest Dubins curve between two poses is legal for the footprint on the map
  // prepared by the last run() or along() (swept cells computed directly, no table).
  bool curve_clear(const Pose& a, const Pose& b) const;
  size_t memory_bytes() const;

  // The hit-check table (for tests, the viewer and the docs): edges from heading i, and the
  // cells edge e sweeps. Valid after a run() with these settings.
  std::span<const Edge> edges_from(int heading) const {
    return {edges_.data() + std::size_t(heading) * per_heading_, per_heading_};
  }
  std::span<const CellXY> cells_of(const Edge& e) const { return {cells_.data() + e.first, e.count}; }
  // Per point of the last run()'s path: 1 when the edge into it was driven backwards (the
  // start's entry is 0). For callers that join the path with others (the hybrid planner).
  std::span<const std::uint8_t> last_gears() const { return last_gears_; }
  // How many times the tables were built (they are rebuilt only when their key changes).
  int table_builds() const { return table_builds_; }

 private:
  struct Problem;
  bool build_tables(const Options& opt, double turning_radius, const Footprint& fp);
  void report_mask(const GridMap& map, CellXY at, const Options& opt, SearchObserver& o) const;
  void prepare_map(const GridMap& map, CapabilityMask cap);
  // Within the cells x0..x1, y0..y1 (inclusive).
  void build_distance(const GridMap& map, int gx, int gy, int x0, int y0, int x1, int y1);

  // Table key and contents.
  int k_ = 0, nb_ = 0;
  double radius_ = -1;
  Footprint fp_{};
  DubinsWords words_ = DubinsWords::All;
  std::size_t per_heading_ = 0;
  std::vector<Edge> edges_;
  std::vector<CellXY> cells_;
  int margin_ = 0;  // the farthest any swept cell lies from the start cell
  int table_builds_ = 0;

  // Padded map: blocked bytes with `margin_` cells of blocked border.
  std::uint64_t map_uid_ = 0, map_version_ = ~std::uint64_t(0);
  CapabilityMask cap_ = 0;
  int map_margin_ = -1;
  int pw_ = 0;
  std::vector<std::uint8_t> blocked_;
  std::vector<float> cost_;  // per map cell
  std::vector<std::int32_t> offs_;  // per table cell: offset in the padded map
  int offs_pw_ = -1;
  bool uniform_ = true;
  double min_cost_ = 1;

  // Obstacle-aware 2D distance to the goal (octile, over cells), cached per goal.
  std::vector<float> dist2d_;
  int dist_goal_ = -1;
  std::array<int, 4> dist_box_{};
  std::uint64_t dist_uid_ = 0, dist_version_ = ~std::uint64_t(0);
  CapabilityMask dist_cap_ = 0;

  std::vector<std::uint8_t> gear_;  // per node: 1 = reached driving backwards
  std::vector<std::uint8_t> last_gears_;
  std::vector<float> hcache_;
  std::vector<std::uint32_t> hstamp_;
  std::uint32_t hsearch_ = 0;

  NodePool<double> pool_;
  OpenList<> open_;
  NodePool<double> along_pool_;
  OpenList<> along_open_;
};

}  // namespace pl
