// The scenario window: the problems of a loaded .scen; picking one sets the agent's start and
// goal (one undo step).
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/app.hpp"

namespace pl::app {

void scenario_window(App& app) {
  if (!app.document.scenario) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos({io.DisplaySize.x - 310, app.ui.menu_height + 10}, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize({300, 260}, ImGuiCond_FirstUseEver);
  bool open = true;
  if (ImGui::Begin("Scenario", &open)) {
    ImGui::TextWrapped("%s: %zu problems. Click one to make it the agent's start and goal.",
                       app.document.scenario_path.c_str(), app.document.scenario->problems.size());
    if (ImGui::BeginTable("##scen", 4, ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg)) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("#");
      ImGui::TableSetupColumn("start");
      ImGui::TableSetupColumn("goal");
      ImGui::TableSetupColumn("optimal");
      ImGui::TableHeadersRow();
      ImGuiListClipper clip;
      clip.Begin(int(app.document.scenario->problems.size()));
      while (clip.Step())
        for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
          const ScenProblem& p = app.document.scenario->problems[std::size_t(i)];
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          char label[32];
          std::snprintf(label, sizeof label, "%d##p", i);
          if (ImGui::Selectable(label, app.document.scenario_pick == i, ImGuiSelectableFlags_SpanAllColumns))
            app.pick_scenario_problem(i);
          ImGui::TableNextColumn();
          ImGui::Text("%d,%d", p.start_x, p.start_y);
          ImGui::TableNextColumn();
          ImGui::Text("%d,%d", p.goal_x, p.goal_y);
          ImGui::TableNextColumn();
          ImGui::Text("%.3f", p.optimal);
        }
      ImGui::EndTable();
    }
  }
  ImGui::End();
  if (!open) app.document.scenario.reset();
}

}  // namespace pl::app
