// Line (key 5): a Bresenham line of brush stamps from press to release (the brush size is the
// line's width; previewed while dragging, applied on release: one undo step).
#pragma once

#include "app/tools/tool.hpp"

namespace pl::app {

class LineTool : public Tool {
 public:
  const char* name() const override { return "Line"; }
  void release(App& app, Vec2 m) override;
  void preview(const App& app, DrawList& dl, Rgba colour, editor::Cell h) const override;
  void panel(App& app) override;
};

}  // namespace pl::app
