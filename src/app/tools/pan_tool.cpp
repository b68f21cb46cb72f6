#include "app/tools/pan_tool.hpp"

#include <imgui.h>

namespace pl::app {

void PanTool::panel(App&) {
  ImGui::TextDisabled("drag to pan; wheel zooms; right or middle drag pans with any tool");
}

}  // namespace pl::app
