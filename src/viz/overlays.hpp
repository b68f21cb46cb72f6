// Overlay builders: free functions over const views of the model (a FrameState, a ClearanceGrid,
// a Scene's agents and circles) that describe what to draw to a DrawSink, the way Recast's
// duDebugDraw* functions draw a navmesh query. They choose the layer themselves, colour through a
// Style, tell the sink which legend keys they used, and skip layers the sink does not want.
//
// Nothing here knows a planner. Search nodes are drawn through the node space the planner
// declared for them (viz/trace.hpp): nodes of a Cells space fill their cell, nodes of a
// CellHeadings space are wedges inside their cell (over a faint fill of it), Corners nodes are
// dots on grid intersections, Layer and Points nodes (and nodes in no declared space) dots at
// their positions. Every shape a planner reported is drawn from its Shape kind and Role alone;
// Role::Obstacle cell marks are the cells the planner treated as blocked.
//
// Builders that could emit one primitive per cell take the visible map rectangle and emit only
// what falls inside it, so a zoomed-in view of a 1024x1024 map costs what the screen shows.
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/clearance.hpp"
#include "core/observer.hpp"
#include "core/scene.hpp"
#include "viz/draw.hpp"
#include "viz/image.hpp"
#include "viz/style.hpp"
#include "viz/trace.hpp"

namespace pl {

// ---- Search state ----------------------------------------------------------------------------

struct SearchDrawOptions {
  // The map the view shows: nodes of Cells and CellHeadings spaces over a map of this size are
  // drawn as cells and wedges; over another size (or 0 x 0), every node is a dot.
  int grid_width = 0, grid_height = 0;
  // Cells nodes as filled cells and the faint fill of the cells of heading nodes. Off when a
  // texture already shows them (search_image in viz/image.hpp); the current node still draws.
  bool cell_fills = true;
  // CellHeadings nodes as wedges inside their cells. Off when cells are too small on screen to
  // show them (the current node then draws as an inset cell).
  bool heading_wedges = true;
  // Role::Obstacle cell marks as shaded cells on Layer::Terrain (what the planner treated as
  // blocked).
  bool blocked_cells = true;
  // Draw only what overlaps this rectangle; nullopt = everything.
  std::optional<MapRect> visible;
  bool open = true, closed = true, current = true;
  bool parent_arrows = false;  // from each node to its parent (Layer::Search)
  bool shapes = true;          // test() and mark() shapes (Layer::Shapes)
  // Shapes first shown in the frame on screen get a halo, so a step shows what it just tried.
  bool highlight_this_frame = true;
  // Only shapes first shown in the last N frames (the frame on screen included); 0 = all.
  // Line-of-sight-heavy planners leave thousands of tests behind; this keeps the recent ones.
  std::size_t shape_history = 0;
  // Failed tests (Role::Rejected) of earlier frames too; false: only those of the frame on
  // screen, so what a planner tried and threw away does not drown the graph it built, and a
  // shape a later test rejected (same geometry and requirement) is withdrawn with it.
  bool rejected_history = true;
  // Passed tests (Role::Accepted) of earlier frames too; false: only those of the frame on
  // screen, so the result reads first and a planner that accepts thousands of candidates
  // (every curve a turning search tried) does not bury it. What a planner keeps it marks.
  bool passed_history = true;
  bool path = true;  // the latest path() (Layer::Path)
  // Only nodes and shapes of this level (0 = base grid; abstract layers above); nullopt = all.
  std::optional<int> level;
  // Only shapes this agent may use (Shape::requirement): "show what this agent may use".
  struct AgentFilter {
    CapabilityMask capability = 0;
    int size = 1;
  };
  std::optional<AgentFilter> agent;
  // Shapes of these roles are not drawn (still named in the legend, so a viewer can offer them
  // back): e.g. hide the tested graph (accepted, rejected) to see only what a search touched.
  std::bitset<std::size_t(Role::Count)> hidden_roles;
  float node_px = 5;  // dot size of a node that is not a grid cell
  float line_px = 2;  // shapes
  float path_px = 3;
};

// Open, closed and current nodes and parent arrows on Layer::Search, planner shapes on
// Layer::Shapes, the latest path on Layer::Path.
void draw_search_state(DrawSink& sink, const FrameState& state, const Style& style,
                       const SearchDrawOptions& options = {});

// The legend of what `list` shows (build_legend), with each role the trace's planner named
// (SearchObserver::role_name) under that name: "jump" rather than "candidate".
std::vector<LegendEntry> build_legend(const DrawList& list, const Style& style, const Trace* trace);

// A CellHeadings node on the sink's current layer: a wedge (a slice from the cell's centre)
// pointing along `heading` (radians, 0 = east, clockwise on screen); the k slices of a cell
// tile its inscribed disc. scale 1 is the whole slice; below 1 narrows it so neighbouring
// headings stay apart.
void draw_heading_wedge(DrawSink& sink, CellXY cell, double heading, int k, Rgba fill,
                        double scale = 0.85);

// A Role::Obstacle cell mark: a cell the planner treated as blocked.
bool is_blocked_cell(const ShapeRecord& r);

// A path (e.g. a PlanResult's pieces, when nothing was recorded) on Layer::Path in Role::Path.
void draw_path(DrawSink& sink, std::span<const PathPiece> pieces, const Style& style,
               float width_px = 3);

// ---- Clearance and grid ----------------------------------------------------------------------

struct ClearanceLabelOptions {
  // More visible cells than this and nothing is emitted: the numbers would be unreadable anyway,
  // and the caller learns from the 0 returned that it should zoom in (or show the heat map).
  std::size_t max_labels = 20000;
  bool show_zero = false;  // cells the capability cannot enter
  float size_px = 0;       // 0 = the renderer's default
  // As "c N" on the cell's top line instead of the centre, for cells that also show the
  // search's g, h and f (SearchNumberOptions::below_top_line puts those under it).
  bool top_line = false;
};

struct SearchNumberOptions {
  // More visible cells than this and nothing is emitted.
  std::size_t max_cells = 4096;
  float size_px = 10;
  // Cells of heading nodes: one line per heading seen ("SE g 3.4 h 5.0 f 8.4") instead of the
  // g, h and f of the cell's best node. For very close zooms (a cell some 150 pixels wide).
  bool every_heading = false;
  // g, h and f on the lower three of four lines: the top one holds the clearance label.
  bool below_top_line = false;
};

// g, h and f of the nodes standing on each visible cell (through their node spaces) that are
// open or closed, on Layer::Search (for close zooms: a cell must be some 40 pixels wide to read
// them): three small lines for a Cells node, or for a cell of heading nodes its best node's
// (smallest f, then larger g) with that node's heading after f, or every heading's line
// (options.every_heading). Nothing when more than max_cells are visible. Returns the number of
// cells labelled.
std::size_t draw_search_numbers(DrawSink& sink, const FrameState& state, int width, int height,
                                const MapRect& visible, const Style& style,
                                const SearchNumberOptions& options = {});

// The clearance value at the centre of each visible cell, on Layer::Clearance. Returns the
// number of labels emitted.
std::size_t draw_clearance_numbers(DrawSink& sink, const ClearanceGrid& grid, int width, int height,
                                   const MapRect& visible, const Style& style,
                                   const ClearanceLabelOptions& options = {});

// Cell borders inside the visible part of the map, on Layer::Terrain (so heat maps and search
// fills drawn on later layers sit on top of them). Every `step`-th line only, counted from 0.
// Returns the number of lines emitted.
std::size_t draw_grid_lines(DrawSink& sink, int width, int height, const MapRect& visible,
                            const Style& style, float width_px = 1, int step = 1);

// ---- Scene -----------------------------------------------------------------------------------

struct AgentDrawOptions {
  bool footprint = true;  // the size x size cells whose upper-left cell holds the start
  bool radius = true;     // the circle continuous planners use
  bool heading = true;    // at start and goal
  bool start = true, goal = true;
  bool turning_circles = false;  // the two circles of the turning radius at the start
  bool label = true;             // the agent's name above its footprint
  bool selected = false;         // thicker outlines
};

// Length of the heading arrow drawn at a start or goal (map units): the editor's heading
// handle sits at its tip.
double agent_heading_length(const Agent& agent);

// On Layer::Agents.
void draw_agent(DrawSink& sink, const Agent& agent, const Style& style,
                const AgentDrawOptions& options = {});

// Circular obstacles on Layer::Terrain; with inflate > 0 also their outline grown by that much
// (the agent's radius: the Minkowski sum the circles planner plans around).
void draw_scene_circles(DrawSink& sink, std::span<const Circle> circles, const Style& style,
                        double inflate = 0);

// ---- Comparing two searches ------------------------------------------------------------------

// Cells expanded (closed at the frames given) by one grid search and not the other. Only nodes
// standing on cells of a width x height map count (Cells and CellHeadings spaces; a cell of
// heading nodes counts as expanded when any of its headings is).
struct ClosedDifference {
  std::vector<std::uint32_t> only_a, only_b;  // cell indices y * width + x, ascending
  std::size_t both = 0;                       // cells closed by both
};
ClosedDifference closed_difference(const FrameState& a, const FrameState& b, int width, int height);

// only_a hatched in StyleItem::OnlyA ("/", one line per cell from its lower-left to its
// upper-right corner), only_b in StyleItem::OnlyB ("\\"), on Layer::Search: over the closed
// colour, which stays the same in every view. `span` < 1 shortens each line to a tick across one
// corner of the cell (A: lower right, B: upper right), leaving the middle free for the g, h, f
// printed there when zoomed in.
inline constexpr float kDifferenceHatchPx = 2.f;
void draw_closed_difference(DrawSink& sink, const ClosedDifference& diff, int width,
                            const Style& style, const std::optional<MapRect>& visible = {},
                            double span = 1.0);

}  // namespace pl
