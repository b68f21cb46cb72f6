// What the editor's tools do to a document, apart from how the user asked for it. The app's
// tool objects (in the spirit of RecastDemo's) turn mouse and keyboard input into these calls;
// tests call them directly. Every function here is one undo step (it opens its own step, which
// joins an enclosing one: a brush drag wraps its stamps in Document::begin_stroke/end_stroke).
//
// Coordinates: cells are (column, row) from the top-left; circles and agent poses are in map
// units (a cell spans [x, x+1] x [y, y+1]); headings are radians, 0 = east, growing clockwise
// on screen (toward +y), as everywhere in pathlab. Cells outside the map are ignored, so a
// stroke may run off the edge.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/generators.hpp"
#include "core/scene.hpp"
#include "editor/cell.hpp"
#include "editor/document.hpp"

namespace pl::editor {

// ---- Terrain painting

enum class BrushShape { Square, Round };

struct Brush {
  TerrainId terrain = 0;
  // Side of the stamp in cells. An odd size is centred on the cell; an even one extends one
  // more cell right and down than left and up.
  int size = 1;
  BrushShape shape = BrushShape::Square;
};

// The eraser is a brush that paints ground (the palette's default_ground()).
Brush eraser(const Palette& palette, int size, BrushShape shape = BrushShape::Square);

// Cells one stamp at (cx, cy) covers, clipped to a map_w x map_h map (also for previews).
// Round stamps keep the cells whose centre lies within size/2 - 1/4 of the stamp's centre, so
// size 3 is a plus, 5 a disc, and sizes 1 and 2 stay full squares.
std::vector<Cell> brush_footprint(const Brush& brush, int cx, int cy, int map_w, int map_h);

// Cells of the Bresenham line from (x0, y0) to (x1, y1), both ends included, in order:
// max(|dx|, |dy|) + 1 cells, each an 8-neighbour of the one before. Previews call this same
// function, so what the user sees is what gets painted.
std::vector<Cell> bresenham_line(int x0, int y0, int x1, int y1);

// One stamp.
void paint_brush(Document& doc, const Brush& brush, int cx, int cy);
// A stamp at every cell of the Bresenham line: the drag segment between two mouse events, or
// the line tool (brush size = line width).
void paint_line(Document& doc, const Brush& brush, int x0, int y0, int x1, int y1);
// Filled rectangle with corners (x0, y0) and (x1, y1) in any order, both included.
void paint_rect(Document& doc, TerrainId terrain, int x0, int y0, int x1, int y1);
// Replaces the 4-connected region of cells with the terrain of (x, y) by `terrain`.
void flood_fill(Document& doc, TerrainId terrain, int x, int y);

// ---- Circles (pl::Circle in Scene::circles)

// Smallest radius a circle gets: a click without a drag still makes a visible circle that the
// circle planner can inflate.
inline constexpr double kMinCircleRadius = 0.05;

// Appends a circle and returns its index. The radius is raised to kMinCircleRadius.
std::size_t add_circle(Document& doc, Vec2 centre, double radius);
void move_circle(Document& doc, std::size_t i, Vec2 centre);
void resize_circle(Document& doc, std::size_t i, double radius);
void remove_circle(Document& doc, std::size_t i);
// The topmost circle (last in the list, drawn last) containing p.
std::optional<std::size_t> pick_circle(const Scene& scene, Vec2 p);
// The topmost circle whose rim is within `tolerance` map units of p (the resize handle).
std::optional<std::size_t> pick_circle_rim(const Scene& scene, Vec2 p, double tolerance);

// ---- Agents

enum class Endpoint { Start, Goal };

// Throws InputError when the agent cannot be valid on this scene: size below 1, negative or
// non-finite radius or turning radius, non-finite poses, a capability naming a terrain outside
// the palette or a hard obstacle.
void check_agent(const Scene& scene, const Agent& agent);

// Appends an agent and returns its index.
std::size_t add_agent(Document& doc, const Agent& agent);
void remove_agent(Document& doc, std::size_t i);
// Replaces agent i as a whole (the agent panel edits a copy and writes it back).
void set_agent(Document& doc, std::size_t i, const Agent& agent);
// Moves the start or goal, keeping its heading. The point is clamped into the map so the
// agent stays on a cell.
void set_agent_position(Document& doc, std::size_t i, Endpoint which, Vec2 p);
// Heading in radians (0 = east, clockwise on screen), stored in [0, 2*pi).
void set_agent_heading(Document& doc, std::size_t i, Endpoint which, double heading);
// The heading handle: points the start or goal at `toward`; no change when they coincide.
void aim_agent_heading(Document& doc, std::size_t i, Endpoint which, Vec2 toward);
void set_agent_size(Document& doc, std::size_t i, int size);
// 0 = the palette's MovingAI default ({ground, swamp}).
void set_agent_capability(Document& doc, std::size_t i, CapabilityMask capability);
void set_agent_radius(Document& doc, std::size_t i, double radius);
void set_agent_turning_radius(Document& doc, std::size_t i, double turning_radius);
void set_agent_can_reverse(Document& doc, std::size_t i, bool can_reverse);
void set_agent_name(Document& doc, std::size_t i, const std::string& name);

struct AgentHandle {
  std::size_t agent = 0;
  Endpoint which = Endpoint::Start;
  bool operator==(const AgentHandle&) const = default;
};
// The nearest start or goal within `tolerance` map units of p (later agents win ties).
std::optional<AgentHandle> pick_agent_endpoint(const Scene& scene, Vec2 p, double tolerance);
// The centre of the cell containing p (for snapping a dragged start or goal).
Vec2 snap_to_cell_centre(Vec2 p);

// ---- Whole-map operations (the history keeps a snapshot of the old map)

// A width x height map of ground with the same palette. Circles are removed (they belong to
// the old map's layout); agents are kept, their start and goal clamped into the new map.
// The map no longer refers to a .map file. Throws InputError for a size outside
// 0..kMaxMapSide.
void new_map(Document& doc, int width, int height);
// Changes the size keeping the content anchored at the top-left; new cells are ground.
// Circles are kept as they are (growing the map back shows them again); agents are clamped
// into the map. The map no longer refers to a .map file.
void resize_map(Document& doc, int width, int height);
// Runs a generator on the current map (see core/generators.hpp); checks the parameters
// first and throws InputError without touching the document. The map no longer refers to a
// .map file (saving must not overwrite the benchmark map it came from).
void apply_generator(Document& doc, const GeneratorParams& params);

}  // namespace pl::editor
