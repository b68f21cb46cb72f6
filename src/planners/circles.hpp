// A* through a forest of circles (issue 5; Red Blob Games, "circular obstacle pathfinding"):
// the exact shortest path of a round agent of radius r among circular obstacles, as alternating
// straight "surfing" segments (bitangents, and tangents from the start and to the goal) and
// "hugging" arcs around the obstacles grown by r (Minkowski inflation).
//
// The world is the circles alone: the grid's terrain and the map border are ignored (a path may
// leave the map; the result says so in the stat "leaves_map"). To make grid planners respect
// circles, rasterise them into the grid with core/circle_raster.hpp.
//
// Graph. Nodes are the start, the goal and the endpoints of surfing edges that have line of
// sight, split by direction: a path arriving at a circle along a surfing edge turns either with
// increasing angle (+1, clockwise on screen) or the other way, and may only leave along a
// surfing edge that continues the same turn, so cusped hugging edges are never generated. Each
// endpoint is an *arrival* node (a surfing edge ends there) or a *departure* node (one starts
// there). Hugging edges link, on each circle and for each direction, every departure node to the
// next departure node in that direction, and every arrival node to the first departure node it
// meets; an arc longer than one link is a chain of links, so A* finds the same shortest paths as
// with the article's edges between every pair of endpoints on a circle, with O(k) instead of
// O(k^2) hugging edges for k endpoints. An arc is culled when another circle enters it or
// touches it at an inner point; a surfing edge when it enters a circle (the clamped u catches
// circles that cover an endpoint) or passes through the contact point of two touching circles.
// Touching circles are thus a closed wall.
//
// Culling. Before its bitangents are computed and tested, a circle gathers the shadows of its
// neighbours: per direction of departure and angle on the circle, a length beyond which every
// tangent segment enters a neighbour. Pairs and segments longer than that are rejected
// untested (exactly the ones line of sight would reject), so a circle's cost depends on what it
// can see, not on n. See docs/circles.md.
//
// Modes. Eager builds the whole graph first (all circle pairs, O(n^2) bitangents each checked
// against the circles along it through a uniform grid), then searches. Lazy builds a circle's
// surfing edges when the search first needs them: one direction of travel and one sector (an
// eighth of a turn) at a time, from the angle the search arrives at on to the first sector with
// a departure beyond it (a search arrives at most circles turning one way only, and uses about
// 2 of a ring's 8 sectors); a cache keeps what each sector built found. Each hugging edge
// is built when a node is expanded; a pair's line-of-sight results are shared by both its
// circles. Lazy mode's
// graph is the part of eager mode's that the search reaches, with the same canonical node keys
// breaking ties, so both return the same path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/circle_raster.hpp"
#include "core/scene.hpp"
#include "planners/planner.hpp"

namespace pl {

enum class CircleGraphMode { Eager, Lazy };

struct CirclePlanOptions {
  CircleGraphMode mode = CircleGraphMode::Lazy;
  // Largest distance between consecutive PlanResult::points along an arc (map units).
  double arc_step = 0.25;
  // Report the edges the search touched with mark(shape, Role::Candidate) (watching only).
  bool mark_searched_edges = true;
  // Cull surfing edges by the shadows of each circle's neighbours before testing them (exact:
  // the same graph and path either way; off only to check that, and to measure the saving).
  bool cull = true;
};

// Graph size and work of one query (also in PlanResult::stats under the same names).
struct CircleGraphStats {
  std::size_t circles = 0;         // obstacles searched around (inflated, redundant ones dropped)
  std::size_t redundant = 0;       // circles inside another one (they never matter)
  std::size_t circles_built = 0;   // circles whose surfing edges were computed
  std::size_t circles_reused = 0;  // ... of which a cache (CircleGraphCache) kept a row
  std::size_t cache_resets = 0;    // the cache was emptied (1) or updated in place (0)
  std::size_t pairs_reset = 0;     // cached circle pairs the update made unknown (pending)
  std::size_t circles_reset = 0;   // cached circles dropped: their rejections may rest on a
                                   // moved circle
  std::size_t nodes = 0;           // graph nodes created (start and goal included)
  std::size_t surfing_tests = 0;   // surfing edges checked for line of sight
  std::size_t surfing_edges = 0;   // ... that passed
  std::size_t surfing_culled = 0;  // surfing edges rejected by the neighbours' shadows, untested
  std::size_t hugging_tests = 0;   // hugging arcs checked
  std::size_t hugging_edges = 0;   // ... that passed
  double build_ms = 0;             // eager: graph construction; lazy: 0 (it is in the search)
  double search_ms = 0;
};

// What a series of queries on nearly the same circles can share: per circle, which of its
// circle pairs have bitangents with line of sight (they depend on the circles alone, not on the
// start, the goal or the mode). Pass the same cache to plan_among_circles for every query of a
// series (a drag, a scene being edited): when the circles kept are the same ones, in the same
// order, with a few of them (at most kMaxMoved) moved or resized, only the moved circles' pairs
// and the pairs whose bitangents can pass near a moved circle's old or new place are
// recomputed; anything else (circles added, removed, a change of agent radius) empties it.
// The result is the same as without a cache, bit for bit. Not thread-safe: one per planner.
class CircleGraphCache {
 public:
  static constexpr std::size_t kMaxMoved = 8;
  CircleGraphCache();
  ~CircleGraphCache();
  CircleGraphCache(CircleGraphCache&&) noexcept;
  CircleGraphCache& operator=(CircleGraphCache&&) noexcept;
  void clear();
  std::size_t memory_bytes() const;

  struct State;
  std::unique_ptr<State> state;
};

// One query among `circles` (scene units; each grown by query.radius). Start or goal inside a
// grown circle: not found, with the message "start is inside obstacle N" (N = index in
// `circles`). Circles with a non-finite field or no size once grown are ignored.
PlanResult plan_among_circles(std::span<const Circle> circles, const Query& query,
                              const CirclePlanOptions& options = {}, const RunContext& ctx = {},
                              CircleGraphStats* stats = nullptr, CircleGraphCache* cache = nullptr);

// Seeded random forests for benchmarks, tests and demos: n circles with radii in
// [min_radius, max_radius] in a square whose side grows with sqrt(n) (so the density stays the
// same), overlapping freely or kept at least `gap` apart; start and goal on opposite sides of
// the square, outside every circle grown by `agent_radius`.
struct CircleForestSpec {
  int count = 100;
  std::uint32_t seed = 1;
  bool overlap = true;
  double min_radius = 1, max_radius = 4;
  double side_per_10 = 10;  // the square's side for every 10 circles' square root: 100 for 100
  double gap = 0.5;         // without overlap: least distance between two circles
  double agent_radius = 0.5;
};
struct CircleForest {
  std::vector<Circle> circles;
  Query query;
  double side = 0;
};
CircleForest make_circle_forest(const CircleForestSpec& spec);
// The index of the circle whose centre lies nearest the middle of the forest's start-goal line
// (the one a drag test or benchmark moves: it stands in the way); 0 for no circles.
std::size_t circle_nearest_middle(const CircleForest& f);

// The registry's "circles" planner: plan_among_circles on the scene's circles.
class CirclesPlanner final : public Planner {
 public:
  explicit CirclesPlanner(CirclePlanOptions options) : options_(options) {}
  PlanResult plan(const Scene& scene, const Query& query, const RunContext& ctx) override;
  size_t memory_bytes() const override { return cache_.memory_bytes(); }

 private:
  CirclePlanOptions options_;
  CircleGraphCache cache_;  // the scene's circles change a few at a time (editing, dragging)
};

}  // namespace pl
