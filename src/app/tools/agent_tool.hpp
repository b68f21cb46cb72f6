// Agent (key 8): a click places the current agent's start or goal (ToolState::place_endpoint);
// a drag on a start or goal moves it, on the tip of its arrow turns it. One undo step a drag.
#pragma once

#include <optional>

#include "app/tools/tool.hpp"

namespace pl::app {

class AgentTool : public Tool {
 public:
  const char* name() const override { return "Agent"; }
  void press(App& app, Vec2 m, double px) override;
  void drag(App& app, Vec2 m) override;
  void release(App& app, Vec2 m) override;

 private:
  std::optional<editor::AgentHandle> handle_;
  bool heading_ = false;  // dragging the heading handle, not the point
};

}  // namespace pl::app
