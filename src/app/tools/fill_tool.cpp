#include "app/tools/fill_tool.hpp"

#include "app/app.hpp"

namespace pl::app {

void FillTool::press(App& app, Vec2, double) {
  editor::flood_fill(app.document.doc, app.tool_state.paint_terrain, app.drag.anchor.x, app.drag.anchor.y);
  app.drag.active = false;
}

void FillTool::preview(const App&, DrawList& dl, Rgba colour, editor::Cell h) const {
  outline_cells(dl, {h}, colour);
}

void FillTool::panel(App& app) { terrain_picker(app); }

}  // namespace pl::app
