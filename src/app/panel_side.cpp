// The side column: one full-height window at the left with three tabs, so panels never cover
// the map views and a new user finds everything in one place. Its width is the user's (drag
// the right edge); ImGui remembers it with the layout.
#include <algorithm>

#include <imgui.h>

#include "app/app.hpp"
#include "app/widgets.hpp"

namespace pl::app {

void panel_side(App& app) {
  app.ui.panel_frame = -1;
  const ImGuiIO& io = ImGui::GetIO();
  const float h = std::max(100.f, io.DisplaySize.y - app.ui.menu_height - kStatusHeight);
  ImGui::SetNextWindowPos({0, app.ui.menu_height});
  ImGui::SetNextWindowSize({kSideWidth, h}, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSizeConstraints({220, h}, {std::max(220.f, io.DisplaySize.x * 0.6f), h});
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoTitleBar |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (begin_opaque_panel("Side", flags, app.ui.opaque_panels)) {
    app.ui.side_width = ImGui::GetWindowWidth();
    if (ImGui::BeginTabBar("##sidetabs")) {
      auto tab = [&](const char* label, int index) {
        const ImGuiTabItemFlags f = app.ui.side_tab_request == index ? ImGuiTabItemFlags_SetSelected : 0;
        return ImGui::BeginTabItem(label, nullptr, f);
      };
      if (tab("Plan", 0)) {
        section_planner(app);
        ImGui::Separator();
        if (app.document.scenario) {
          section_scenario(app);
          ImGui::Separator();
        }
        section_timeline(app);
        section_drive(app);
        ImGui::EndTabItem();
      }
      if (tab("Edit", 1)) {
        section_tools(app);
        ImGui::EndTabItem();
      }
      if (tab("Display", 2)) {
        section_overlays(app);
        ImGui::EndTabItem();
      }
      app.ui.side_tab_request = -1;
      ImGui::EndTabBar();
    }
    if (app.ui.side_scroll_end) ImGui::SetScrollY(ImGui::GetScrollMaxY());
  }
  ImGui::End();
}

}  // namespace pl::app
