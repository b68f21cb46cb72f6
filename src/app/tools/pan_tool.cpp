#include "app/tools/pan_tool.hpp"

#include <imgui.h>

#include "app/widgets.hpp"

namespace pl::app {

void PanTool::panel(App&) {
  hint("drag to pan; wheel zooms; right or middle drag pans with any tool");
}

}  // namespace pl::app
