// Planner panel: generated from the registry's descriptions; nothing here knows a planner.
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/app.hpp"

namespace pl::app {
namespace {

void param_widget(App& app, const ParamDesc& d) {
  std::string& value = app.params[d.name];
  const std::string id = d.name + "##param";
  switch (d.type) {
    case ParamDesc::Type::Int: {
      int v = value.empty() ? 0 : std::stoi(value);
      if (ImGui::SliderInt(id.c_str(), &v, int(d.min), int(d.max))) value = std::to_string(v);
      break;
    }
    case ParamDesc::Type::Double: {
      float v = value.empty() ? 0.f : std::stof(value);
      if (ImGui::SliderFloat(id.c_str(), &v, float(d.min), float(d.max), "%.3f")) {
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
  if (!d.description.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", d.description.c_str());
}

}  // namespace

void panel_planner(App& app) {
  ImGui::SetNextWindowPos({0, 0}, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize({kSideWidth, 250}, ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Planner")) {
    const Registry& reg = Registry::builtin();
    const PlannerInfo* info = reg.find(app.planner);
    if (ImGui::BeginCombo("planner", app.planner.c_str())) {
      for (const PlannerInfo& p : reg.all()) {
        if (ImGui::Selectable(p.name.c_str(), p.name == app.planner)) app.select_planner(p.name);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description.c_str());
      }
      ImGui::EndCombo();
    }
    info = reg.find(app.planner);
    if (info) {
      ImGui::TextDisabled("%s%s", info->family.c_str(), info->optimal ? ", optimal" : "");
      for (const ParamDesc& d : info->params) param_widget(app, d);
    }
    if (app.scene.agents.size() > 1) {
      int a = app.agent;
      if (ImGui::SliderInt("agent", &a, 0, int(app.scene.agents.size()) - 1)) app.agent = a;
      ImGui::SameLine();
      ImGui::TextUnformatted(app.scene.agents[std::size_t(app.agent)].name.c_str());
    }

    if (app.run) {
      ImGui::ProgressBar(app.run->progress(), {-80, 0});
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) app.run->cancel();
    } else if (ImGui::Button("Run", {-1, 0})) {
      app.start_run();
    }

    if (!app.shown_planner.empty()) {
      ImGui::Separator();
      const PlanResult& r = app.result;
      ImGui::Text("%s: %s", app.shown_planner.c_str(),
                  r.cancelled ? "cancelled" : r.found ? "path found" : "no path");
      if (r.found) ImGui::Text("length %.4f", r.length);
      ImGui::Text("expanded %llu, generated %llu", (unsigned long long)r.expanded,
                  (unsigned long long)r.generated);
      ImGui::Text("time %.3f ms", r.time_ms);
      if (!r.message.empty()) ImGui::TextWrapped("%s", r.message.c_str());
    }
  }
  ImGui::End();
}

}  // namespace pl::app
