#include "app/tools/rect_tool.hpp"

#include <algorithm>

#include "app/app.hpp"

namespace pl::app {

void RectTool::release(App& app, Vec2 m) {
  const editor::Cell a = app.drag.anchor, c = cell_of(m);
  editor::paint_rect(app.document.doc, app.tool_state.paint_terrain, a.x, a.y, c.x, c.y);
}

void RectTool::preview(const App& app, DrawList& dl, Rgba colour, editor::Cell h) const {
  if (!app.drag.active) return outline_cells(dl, {h}, colour);
  const editor::Cell a = app.drag.anchor;
  dl.rect_outline({double(std::min(a.x, h.x)), double(std::min(a.y, h.y))},
                  {std::max(a.x, h.x) + 1.0, std::max(a.y, h.y) + 1.0}, colour, 2.f);
}

void RectTool::panel(App& app) { terrain_picker(app); }

}  // namespace pl::app
