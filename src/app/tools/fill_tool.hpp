// Fill (key 6): replaces the 4-connected region under the click by the chosen terrain.
#pragma once

#include "app/tools/tool.hpp"

namespace pl::app {

class FillTool : public Tool {
 public:
  const char* name() const override { return "Fill"; }
  void press(App& app, Vec2 m, double px) override;
  void preview(const App& app, DrawList& dl, Rgba colour, editor::Cell h) const override;
  void panel(App& app) override;
};

}  // namespace pl::app
