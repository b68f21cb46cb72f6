// The scenario's problems, a section of the side column's Plan tab (it hides no view): picking
// one sets the agent's start and goal (one undo step). Sortable by any column (the optimal
// length among them); a problem is found by its number (maze512 has 9,730).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>

#include <imgui.h>

#include "app/app.hpp"

namespace pl::app {

namespace {

// The problems' order under the table's sort specs (file order when unsorted).
void sort_problems(const Scenario& sc, const ImGuiTableSortSpecs* specs, std::vector<int>& order) {
  order.resize(sc.problems.size());
  std::iota(order.begin(), order.end(), 0);
  if (!specs || specs->SpecsCount == 0) return;
  const ImGuiTableColumnSortSpecs& s = specs->Specs[0];
  auto key = [&](int i) -> double {
    const ScenProblem& p = sc.problems[std::size_t(i)];
    switch (s.ColumnIndex) {
      case 1: return double(p.start_y) * 1e6 + p.start_x;
      case 2: return double(p.goal_y) * 1e6 + p.goal_x;
      case 3: return p.optimal;
      default: return i;
    }
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return s.SortDirection == ImGuiSortDirection_Descending ? key(a) > key(b) : key(a) < key(b);
  });
}

}  // namespace

void section_scenario(App& app) {
  if (!app.document.scenario) return;
  const Scenario& sc = *app.document.scenario;
  const int count = int(sc.problems.size());
  char header[64];
  std::snprintf(header, sizeof header, "Scenario: %d problems###scenario", count);
  if (!ImGui::CollapsingHeader(header, ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", app.document.scenario_path.c_str());
  ImGui::PopTextWrapPos();
  UiSettings& ui = app.ui;
  // Find by number: Enter picks it and scrolls the list to it.
  ImGui::SetNextItemWidth(110);
  if (ImGui::InputInt("##scenfind", &ui.scenario_find, 1, 100, ImGuiInputTextFlags_EnterReturnsTrue)) {
    ui.scenario_find = std::clamp(ui.scenario_find, 0, count - 1);
    app.pick_scenario_problem(ui.scenario_find);
    ui.scenario_scroll_to_pick = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A problem's number; Enter picks it");
  ImGui::SameLine();
  if (ImGui::Button("pick")) {
    ui.scenario_find = std::clamp(ui.scenario_find, 0, count - 1);
    app.pick_scenario_problem(ui.scenario_find);
    ui.scenario_scroll_to_pick = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("close")) {
    app.document.scenario.reset();
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_Sortable |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  const float row_h = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
  const float table_h = std::clamp(row_h * float(count + 1) + 4, row_h * 3, 170.f);
  if (ImGui::BeginTable("##scen", 4, flags, {0, table_h})) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_DefaultSort);
    ImGui::TableSetupColumn("start");
    ImGui::TableSetupColumn("goal");
    ImGui::TableSetupColumn("optimal", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
    const std::string key = app.document.scenario_path + "#" + std::to_string(count);
    if ((specs && specs->SpecsDirty) || ui.scenario_order.size() != sc.problems.size() || ui.scenario_order_key != key) {
      sort_problems(sc, specs, ui.scenario_order);
      ui.scenario_order_key = key;
      if (specs) specs->SpecsDirty = false;
    }
    if (ui.scenario_scroll_to_pick) {
      const auto at = std::find(ui.scenario_order.begin(), ui.scenario_order.end(), app.document.scenario_pick);
      if (at != ui.scenario_order.end())
        ImGui::SetScrollY(std::max(0.f, float(at - ui.scenario_order.begin()) * row_h - table_h * 0.4f));
      ui.scenario_scroll_to_pick = false;
    }
    ImGuiListClipper clip;
    clip.Begin(count, row_h);
    while (clip.Step())
      for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
        const int i = ui.scenario_order[std::size_t(r)];
        const ScenProblem& p = sc.problems[std::size_t(i)];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        char label[32];
        std::snprintf(label, sizeof label, "%d##p", i);
        if (ImGui::Selectable(label, app.document.scenario_pick == i, ImGuiSelectableFlags_SpanAllColumns)) {
          app.pick_scenario_problem(i);
          ui.scenario_find = i;
        }
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

}  // namespace pl::app
