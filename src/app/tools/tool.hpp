// The editing tools, RecastDemo style: one small class per tool (its own file pair in this
// folder) behind one interface; the map view and the tools panel only talk to Tool. A tool
// object keeps what one drag needs between press and release; what must survive switching tools
// (brush size, paint, the selected circle...) lives in ToolState, apart from the objects, as
// RecastDemo's ToolState. What a tool does to the document is editor:: code (editor/tools.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "core/geometry.hpp"
#include "editor/cell.hpp"
#include "editor/tools.hpp"
#include "viz/draw.hpp"

namespace pl::app {

struct App;

// What outlives any one tool object and any one drag.
struct ToolState {
  editor::BrushShape brush_shape = editor::BrushShape::Square;
  int brush_size = 1;
  TerrainId paint_terrain = 4;  // hard obstacle: the first thing people paint is a wall
  std::optional<std::size_t> selected_circle;
  editor::Endpoint place_endpoint = editor::Endpoint::Start;
};

// What a drag with the current tool is doing between press and release (the part every tool
// shares; tool objects keep their own extras).
struct ToolDrag {
  bool active = false;
  editor::Cell anchor{}, last{};  // cells: brush, rect, line
};

class Tool {
 public:
  virtual ~Tool() = default;
  virtual const char* name() const = 0;
  // False for a tool whose left drag pans the view instead of editing (Pan).
  virtual bool edits() const { return true; }
  // Left button pressed at map point m (px: map units per pixel); app.drag is already active,
  // anchored at m's cell. A tool that is done at once clears app.drag.active.
  virtual void press(App& app, Vec2 m, double px);
  // The pointer moved to m with the button down; app.drag.last is the cell of the last call.
  virtual void drag(App& app, Vec2 m);
  // The button was released at m.
  virtual void release(App& app, Vec2 m);
  // What the tool would do at cell h (the cell under the pointer), on the ToolPreview layer.
  virtual void preview(const App& app, DrawList& dl, Rgba colour, editor::Cell h) const;
  // The tool's options in the Edit tab.
  virtual void panel(App& app);
  // Keys while the map has the keyboard.
  virtual void keys(App& app);
};

// Every tool, in key order (1-8): Pan, Brush, Erase, Rect, Line, Fill, Circle, Agent.
std::vector<std::unique_ptr<Tool>> make_tools();

// Shared by the tools.
editor::Cell cell_of(Vec2 p);
void outline_cells(DrawList& dl, const std::vector<editor::Cell>& cells, Rgba colour);
// The paint swatches (sets ToolState::paint_terrain) and the brush size and shape.
void terrain_picker(App& app);
void brush_options(App& app);

}  // namespace pl::app
