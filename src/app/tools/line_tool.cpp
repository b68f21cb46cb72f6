#include "app/tools/line_tool.hpp"

#include "app/app.hpp"
#include "app/tools/brush_tool.hpp"

namespace pl::app {

void LineTool::release(App& app, Vec2 m) {
  const editor::Cell a = app.drag.anchor, c = cell_of(m);
  editor::paint_line(app.document.doc, paint_brush(app), a.x, a.y, c.x, c.y);
}

void LineTool::preview(const App& app, DrawList& dl, Rgba colour, editor::Cell h) const {
  const GridMap& map = app.scene().map;
  const editor::Brush brush = paint_brush(app);
  const editor::Cell a = app.drag.active ? app.drag.anchor : h;
  std::vector<editor::Cell> cells;
  for (const editor::Cell& k : editor::bresenham_line(a.x, a.y, h.x, h.y))
    for (const editor::Cell& f : editor::brush_footprint(brush, k.x, k.y, map.width(), map.height()))
      cells.push_back(f);
  outline_cells(dl, cells, colour);
}

void LineTool::panel(App& app) {
  terrain_picker(app);
  brush_options(app);
}

}  // namespace pl::app
