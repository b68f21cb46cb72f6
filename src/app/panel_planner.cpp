// Planner panel: generated from the registry's descriptions; nothing here knows a planner.
#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/app.hpp"
#include "app/widgets.hpp"

namespace pl::app {
namespace {

void param_widget(View& view, const ParamDesc& d) {
  std::string& value = view.params[d.name];
  // Labelled in words (the registry's label), the name and description in the tooltip. The
  // widget leaves the label its room; a label too long for that goes on its own line.
  const std::string words = d.words();
  const float avail = ImGui::GetContentRegionAvail().x, spacing = ImGui::GetStyle().ItemInnerSpacing.x;
  const float label_w = ImGui::CalcTextSize(words.c_str()).x + spacing;
  const bool above = d.type != ParamDesc::Type::Bool && avail - label_w < avail * 0.5f;
  if (above) {
    ImGui::TextUnformatted(words.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %s", d.name.c_str(), d.description.c_str());
    ImGui::SetNextItemWidth(-1);
  } else if (d.type != ParamDesc::Type::Bool) {
    ImGui::SetNextItemWidth(avail - label_w);
  }
  const std::string id = (above ? "" : words) + "##param" + d.name;
  switch (d.type) {
    case ParamDesc::Type::Int: {
      int v = value.empty() ? 0 : std::stoi(value);
      // Drag fields, not sliders: a slider's handle covers its value.
      if (ImGui::DragInt(id.c_str(), &v, 0.2f, int(d.min), int(d.max), "%d", ImGuiSliderFlags_AlwaysClamp))
        value = std::to_string(v);
      break;
    }
    case ParamDesc::Type::Double: {
      float v = value.empty() ? 0.f : std::stof(value);
      if (ImGui::DragFloat(id.c_str(), &v, float(d.max - d.min) / 2000.f, float(d.min), float(d.max), "%.3f",
                           ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", double(v));
        value = buf;
      }
      break;
    }
    case ParamDesc::Type::Bool: {
      bool v = value == "true" || value == "1";
      if (ImGui::Checkbox(id.c_str(), &v)) value = v ? "true" : "false";
      break;
    }
    case ParamDesc::Type::Enum: {
      if (ImGui::BeginCombo(id.c_str(), value.c_str())) {
        for (const std::string& c : d.choices)
          if (ImGui::Selectable(c.c_str(), c == value)) value = c;
        ImGui::EndCombo();
      }
      break;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %s", d.name.c_str(), d.description.c_str());
}

}  // namespace

void section_planner(App& app) {
  {
    // One tab per view; the panel edits the active one.
    if (app.views.size() > 1) {
      for (int i = 0; i < int(app.views.size()); ++i) {
        if (i) ImGui::SameLine();
        const std::string label = "View " + std::string(1, char('A' + i));
        if (ImGui::RadioButton(label.c_str(), app.views.active == i)) app.views.active = i;
      }
    }
    View& view = app.view();
    const Registry& reg = registry();
    if (ImGui::BeginCombo("planner", view.planner.c_str())) {
      for (const PlannerInfo& p : reg.all()) {
        if (ImGui::Selectable(p.name.c_str(), p.name == view.planner)) view.select_planner(p.name);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description.c_str());
      }
      ImGui::EndCombo();
    }
    if (const PlannerInfo* info = reg.find(view.planner)) {
      ImGui::TextDisabled("%s%s", info->family.c_str(), info->optimal ? ", optimal" : "");
      for (const ParamDesc& d : info->params) param_widget(view, d);
    }
    const Scene& scene = app.scene();
    if (!scene.agents.empty()) {
      view.agent = std::clamp(view.agent, 0, int(scene.agents.size()) - 1);
      if (ImGui::BeginCombo("agent", scene.agents[std::size_t(view.agent)].name.c_str())) {
        for (int i = 0; i < int(scene.agents.size()); ++i) {
          const std::string label = scene.agents[std::size_t(i)].name + "##agent" + std::to_string(i);
          if (ImGui::Selectable(label.c_str(), i == view.agent)) view.agent = i, app.agent = i;
        }
        ImGui::EndCombo();
      }
    } else {
      ImGui::TextDisabled("No agent: place one with the Agent tool (8).");
    }

    if (view.run) {
      ImGui::ProgressBar(view.run->progress(), {-80, 0});
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) view.run->cancel();
    } else {
      if (ImGui::Button("Run (R)", {app.views.size() > 1 ? 120.f : -1.f, 0})) app.start_run(view);
      if (app.views.size() > 1) {
        ImGui::SameLine();
        if (ImGui::Button("Run all views", {-1, 0})) app.start_all_runs();
      }
    }
    ImGui::Checkbox("re-run after every edit", &app.views.auto_rerun);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("A run whose scene, agent or set-up changed is stale; with this on it is "
                        "run again as soon as that happens.");

    if (view.has_run) {
      ImGui::Separator();
      const PlanResult& r = view.result;
      ImGui::TextWrapped("%s: %s", view.shown_planner.c_str(),
                  r.cancelled ? "cancelled" : r.found ? "path found" : "no path");
      if (app.stale(view)) {
        ImGui::SameLine();
        ImGui::TextColored({1, 0.75f, 0.2f, 1}, "(stale)");
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("The scene, the agent or the planner set-up changed since this run. "
                            "Run again to update it.");
      }
      if (r.found) ImGui::Text("length %.4f", r.length);
      ImGui::TextWrapped("expanded %llu, generated %llu", (unsigned long long)r.expanded,
                         (unsigned long long)r.generated);
      ImGui::TextWrapped("time %.3f ms, memory %.1f KiB", r.time_ms, double(r.memory_bytes) / 1024.0);
      // Planner figures (expansions per phase, graph sizes...) fold away: they can be many.
      if (!r.stats.empty() && ImGui::TreeNode("planner figures")) {
        for (const auto& [k, val] : r.stats) ImGui::Text("%s %g", k.c_str(), val);
        ImGui::TreePop();
      }
      if (!r.message.empty()) ImGui::TextWrapped("%s", r.message.c_str());
    }
  }
}

}  // namespace pl::app
