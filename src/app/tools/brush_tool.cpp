#include "app/tools/brush_tool.hpp"

#include "app/app.hpp"

namespace pl::app {

editor::Brush paint_brush(const App& app) {
  editor::Brush b;
  b.terrain = app.tool_state.paint_terrain;
  b.size = app.tool_state.brush_size;
  b.shape = app.tool_state.brush_shape;
  return b;
}

editor::Brush BrushTool::brush(const App& app) const { return paint_brush(app); }

void BrushTool::press(App& app, Vec2, double) {
  app.document.doc.begin_stroke(name());
  editor::paint_brush(app.document.doc, brush(app), app.drag.anchor.x, app.drag.anchor.y);
}

void BrushTool::drag(App& app, Vec2 m) {
  const editor::Cell c = cell_of(m), last = app.drag.last;
  if (!(c == last)) editor::paint_line(app.document.doc, brush(app), last.x, last.y, c.x, c.y);
}

void BrushTool::release(App& app, Vec2) { app.document.doc.end_stroke(); }

void BrushTool::preview(const App& app, DrawList& dl, Rgba colour, editor::Cell h) const {
  const GridMap& map = app.scene().map;
  outline_cells(dl, editor::brush_footprint(brush(app), h.x, h.y, map.width(), map.height()), colour);
}

void BrushTool::panel(App& app) {
  terrain_picker(app);
  brush_options(app);
}

}  // namespace pl::app
