// Circle (key 7): a drag on empty ground creates a circle, inside one moves it, on its rim
// resizes it; Delete removes the selected one. Each drag is one undo step.
#pragma once

#include <cstddef>

#include "app/tools/tool.hpp"

namespace pl::app {

class CircleTool : public Tool {
 public:
  const char* name() const override { return "Circle"; }
  void press(App& app, Vec2 m, double px) override;
  void drag(App& app, Vec2 m) override;
  void release(App& app, Vec2 m) override;
  void preview(const App& app, DrawList& dl, Rgba colour, editor::Cell h) const override;
  void panel(App& app) override;
  void keys(App& app) override;

 private:
  enum class Mode { Create, Move, Resize } mode_ = Mode::Create;
  std::size_t circle_ = 0;
  Vec2 grab_offset_{};  // move: centre - press
};

}  // namespace pl::app
