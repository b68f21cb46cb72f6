// Pan (key 1): a left drag pans the view; it never edits.
#pragma once

#include "app/tools/tool.hpp"

namespace pl::app {

class PanTool : public Tool {
 public:
  const char* name() const override { return "Pan"; }
  bool edits() const override { return false; }
  void panel(App& app) override;
};

}  // namespace pl::app
