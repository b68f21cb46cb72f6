// Overlays panel: a toggle per layer, options, and the legend of what is on screen.
#include <string>

#include <imgui.h>

#include "app/app.hpp"
#include "viz/overlays.hpp"
#include "viz/style.hpp"

namespace pl::app {

void section_overlays(App& app) {
  {
    for (std::size_t l = 0; l < kLayerCount; ++l) {
      bool on = app.ui.layers[l];
      if (ImGui::Checkbox(layer_name(Layer(l)), &on)) app.ui.layers[l] = on;
    }
    if (app.views.size() == 2) ImGui::Checkbox("difference (expanded by one view only)", &app.ui.show_difference);
    ImGui::Checkbox("grid lines (zoomed in)", &app.ui.grid_lines);
    ImGui::Checkbox("parent arrows", &app.ui.show_parent_arrows);
    ImGui::Checkbox("only what the agent may use", &app.ui.only_usable_shapes);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Shapes a planner marks as usable only by some agents (HAA* edges and "
                        "entrances: a capability and a clearance) are hidden unless the view's "
                        "agent has that capability and is no larger. Hover one for its label.");
    ImGui::Checkbox("g, h, f in each cell (zoomed in)", &app.ui.show_search_numbers);
    if (ImGui::Checkbox("g heat map of the frame", &app.ui.show_g_heat) && app.ui.show_g_heat)
      app.ui.show_clearance = false;
    if (ImGui::Checkbox("clearance heat map", &app.ui.show_clearance) && app.ui.show_clearance)
      app.ui.show_g_heat = false;
    if (app.ui.show_clearance) {
      ImGui::Indent();
      int metric = app.ui.clearance_metric == ClearanceMetric::True ? 0 : 1;
      if (ImGui::RadioButton("true", metric == 0)) metric = 0;
      ImGui::SameLine();
      if (ImGui::RadioButton("brushfire", metric == 1)) metric = 1;
      app.ui.clearance_metric = metric == 0 ? ClearanceMetric::True : ClearanceMetric::Brushfire;
      const Palette& pal = app.scene().map.palette();
      CapabilityMask cap = app.overlay_capability();
      for (int t = 0; t < pal.size(); ++t) {
        if (pal[TerrainId(t)].obstacle) continue;
        bool on = (cap >> t) & 1u;
        if (ImGui::Checkbox(("##cap" + std::to_string(t)).c_str(), &on)) {
          cap = on ? (cap | (1u << t)) : (cap & ~(1u << t));
          if (cap) app.ui.clearance_cap = cap;  // an empty capability shows nothing: keep the last
        }
        ImGui::SameLine();
        ImGui::TextUnformatted(pal[TerrainId(t)].name.c_str());
      }
      if (app.ui.clearance_cap && ImGui::SmallButton("agent's capability")) app.ui.clearance_cap = 0;
      ImGui::TextDisabled("numbers appear when zoomed in");
      ImGui::Unindent();
    }
    if (ImGui::Button("Fit (F)"))
      for (auto& v : app.views) v->fit_pending = true;
    ImGui::Separator();
    ImGui::Checkbox("legend on the map", &app.ui.map_legend);
    ImGui::Checkbox("failed tests of every frame", &app.ui.rejected_history);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Off: only the failed tests of the frame on screen, so the graph a planner\n"
                        "built and its path stay readable. On: everything it tried and rejected.");
    ImGui::Checkbox("passed tests of every frame", &app.ui.passed_history);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Off: only the passed tests of the frame on screen, so the result reads\n"
                        "first. On: every candidate a planner tried and accepted.");
    // The legend of what is on screen; planner shapes can be hidden by role here (e.g. hide
    // "accepted" and "rejected" tests to see only the edges a search touched).
    const DrawList& list = app.view().draw_list;
    const auto& shape_keys = list.batch(Layer::Shapes).used;
    for (const LegendEntry& e : build_legend(list, Style::standard(), app.view().trace.get())) {
      const ImVec4 c{e.colour.r / 255.f, e.colour.g / 255.f, e.colour.b / 255.f, e.colour.a / 255.f};
      ImGui::PushID(int(e.key.dense()));  // a planner may give two roles one name
      if (e.key.kind == StyleKey::Kind::Role && shape_keys.test(e.key.dense())) {
        bool shown = !app.ui.hidden_roles.test(e.key.index);
        if (ImGui::Checkbox(("##role" + e.label).c_str(), &shown)) app.ui.hidden_roles.set(e.key.index, !shown);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("show planner shapes of this role");
        ImGui::SameLine();
      }
      ImGui::ColorButton(("##legend" + e.label).c_str(), c,
                         ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_AlphaPreviewHalf,
                         {14, 14});
      ImGui::SameLine();
      ImGui::TextUnformatted(e.label.c_str());
      ImGui::PopID();
    }
  }
}

}  // namespace pl::app
