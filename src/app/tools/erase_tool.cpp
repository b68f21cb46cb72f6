#include "app/tools/erase_tool.hpp"

#include "app/app.hpp"

namespace pl::app {

editor::Brush EraseTool::brush(const App& app) const {
  return editor::eraser(app.scene().map.palette(), app.tool_state.brush_size,
                        app.tool_state.brush_shape);
}

void EraseTool::panel(App& app) { brush_options(app); }

}  // namespace pl::app
