// Brush (key 2): paints the chosen terrain with a square or round stamp; one drag is one undo
// step (a stroke), the stamps joined by lines so a fast drag leaves no gaps.
#pragma once

#include "app/tools/tool.hpp"

namespace pl::app {

class BrushTool : public Tool {
 public:
  const char* name() const override { return "Brush"; }
  void press(App& app, Vec2 m, double px) override;
  void drag(App& app, Vec2 m) override;
  void release(App& app, Vec2 m) override;
  void preview(const App& app, DrawList& dl, Rgba colour, editor::Cell h) const override;
  void panel(App& app) override;

  // The stamp this tool paints with.
  virtual editor::Brush brush(const App& app) const;
};

// The paint brush of the tool state (also the Line tool's pen).
editor::Brush paint_brush(const App& app);

}  // namespace pl::app
