// Rect (key 4): a filled rectangle of the chosen terrain from press to release (previewed while
// dragging, applied on release: one undo step).
#pragma once

#include "app/tools/tool.hpp"

namespace pl::app {

class RectTool : public Tool {
 public:
  const char* name() const override { return "Rect"; }
  void release(App& app, Vec2 m) override;
  void preview(const App& app, DrawList& dl, Rgba colour, editor::Cell h) const override;
  void panel(App& app) override;
};

}  // namespace pl::app
