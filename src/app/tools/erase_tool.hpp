// Erase (key 3): the brush with the palette's ground.
#pragma once

#include "app/tools/brush_tool.hpp"

namespace pl::app {

class EraseTool : public BrushTool {
 public:
  const char* name() const override { return "Erase"; }
  void panel(App& app) override;
  editor::Brush brush(const App& app) const override;
};

}  // namespace pl::app
