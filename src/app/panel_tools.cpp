// Tools panel: the editing tool (RecastDemo-style tool objects act in map_view.cpp), its options,
// and the editors of the selected circle and agent. Every change goes through editor:: calls,
// so each is one undo step.
#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/app.hpp"

namespace pl::app {
namespace {

ImVec4 terrain_colour(const Terrain& t) {
  return {t.colour.r / 255.f, t.colour.g / 255.f, t.colour.b / 255.f, 1.f};
}

void terrain_picker(App& app) {
  const Palette& pal = app.scene().map.palette();
  for (int t = 0; t < pal.size(); ++t) {
    const Terrain& type = pal[TerrainId(t)];
    if (t) ImGui::SameLine();
    const bool chosen = app.paint_terrain == TerrainId(t);
    if (chosen) ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 3.f);
    if (ImGui::ColorButton(("##terrain" + std::to_string(t)).c_str(), terrain_colour(type),
                           ImGuiColorEditFlags_NoTooltip, {28, 28}))
      app.paint_terrain = TerrainId(t);
    if (chosen) ImGui::PopStyleVar();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s (cost %g)%s", type.name.c_str(), type.cost, type.obstacle ? ", obstacle" : "");
  }
  ImGui::Text("paint: %s", pal[app.paint_terrain].name.c_str());
}

void agent_editor(App& app) {
  const Scene& scene = app.scene();
  if (ImGui::Button("Add agent")) {
    Agent a;
    a.name = "agent " + std::to_string(scene.agents.size() + 1);
    const Vec2 c{scene.map.width() * 0.5, scene.map.height() * 0.5};
    a.start = a.goal = {std::floor(c.x) + 0.5, std::floor(c.y) + 0.5, 0};
    app.select_agent(int(editor::add_agent(app.doc, a)));
  }
  if (scene.agents.empty()) return;
  app.agent = std::clamp(app.agent, 0, int(scene.agents.size()) - 1);
  const std::size_t i = std::size_t(app.agent);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120);
  if (ImGui::BeginCombo("##editagent", scene.agents[i].name.c_str())) {
    for (int k = 0; k < int(scene.agents.size()); ++k)
      if (ImGui::Selectable((scene.agents[std::size_t(k)].name + "##ea" + std::to_string(k)).c_str(), k == app.agent))
        app.select_agent(k);
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("Remove")) {
    editor::remove_agent(app.doc, i);
    app.select_agent(std::max(0, app.agent - 1));
    for (auto& v : app.views) v->agent = std::clamp(v->agent, 0, std::max(0, int(app.scene().agents.size()) - 1));
    return;
  }
  const Agent& a = scene.agents[i];
  char name[64];
  std::snprintf(name, sizeof name, "%s", a.name.c_str());
  if (ImGui::InputText("name", name, sizeof name, ImGuiInputTextFlags_EnterReturnsTrue))
    editor::set_agent_name(app.doc, i, name);
  int size = a.size;
  if (ImGui::SliderInt("size", &size, 1, 8)) editor::set_agent_size(app.doc, i, size);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Side of the square agent in cells (HAA*, Annotated A*)");
  const Palette& pal = scene.map.palette();
  CapabilityMask cap = scene.capability_of(a);
  ImGui::TextUnformatted("can traverse:");
  int shown = 0;
  for (int t = 0; t < pal.size(); ++t) {
    if (pal[TerrainId(t)].obstacle) continue;
    bool on = (cap >> t) & 1u;
    if (shown++ % 3) ImGui::SameLine();
    if (ImGui::Checkbox((pal[TerrainId(t)].name + "##cap").c_str(), &on)) {
      const CapabilityMask next = on ? (cap | (1u << t)) : (cap & ~(1u << t));
      if (next) editor::set_agent_capability(app.doc, i, next);  // an agent must move on something
    }
  }
  // Sliders edit continuously; each change is its own small step, so one drag is grouped by
  // ImGui's activation: open a step while the item is active.
  auto slider = [&](const char* label, double value, float lo, float hi, auto apply) {
    float v = float(value);
    const bool changed = ImGui::SliderFloat(label, &v, lo, hi, "%.2f");
    if (ImGui::IsItemActivated()) app.doc.begin_step(label);
    if (changed) apply(double(v));
    if (ImGui::IsItemDeactivated()) app.doc.end_step();
  };
  slider("radius", a.radius, 0.f, 10.f, [&](double v) { editor::set_agent_radius(app.doc, i, v); });
  slider("turning radius", a.turning_radius, 0.f, 20.f,
         [&](double v) { editor::set_agent_turning_radius(app.doc, i, v); });
  slider("start heading", a.start.heading * 180 / kPi, 0.f, 359.f, [&](double v) {
    editor::set_agent_heading(app.doc, i, editor::Endpoint::Start, v * kPi / 180);
  });
  slider("goal heading", a.goal.heading * 180 / kPi, 0.f, 359.f, [&](double v) {
    editor::set_agent_heading(app.doc, i, editor::Endpoint::Goal, v * kPi / 180);
  });
  bool reverse = a.can_reverse;
  if (ImGui::Checkbox("can reverse", &reverse)) editor::set_agent_can_reverse(app.doc, i, reverse);
  ImGui::Text("start (%.1f, %.1f)  goal (%.1f, %.1f)", a.start.x, a.start.y, a.goal.x, a.goal.y);
  int which = app.place_endpoint == editor::Endpoint::Start ? 0 : 1;
  ImGui::TextUnformatted("click places:");
  ImGui::SameLine();
  ImGui::RadioButton("start", &which, 0);
  ImGui::SameLine();
  ImGui::RadioButton("goal", &which, 1);
  app.place_endpoint = which == 0 ? editor::Endpoint::Start : editor::Endpoint::Goal;
  ImGui::TextDisabled("drag a start/goal to move it, its arrow tip to turn it");
}

void circle_editor(App& app) {
  const Scene& scene = app.scene();
  ImGui::TextDisabled("drag on empty ground: new circle; drag inside: move;\ndrag the rim: resize; Delete: remove");
  if (!app.selected_circle || *app.selected_circle >= scene.circles.size()) return;
  const std::size_t i = *app.selected_circle;
  const Circle& c = scene.circles[i];
  ImGui::Text("circle %zu at (%.2f, %.2f)", i, c.x, c.y);
  float r = float(c.r);
  const bool changed = ImGui::SliderFloat("circle radius", &r, float(editor::kMinCircleRadius), 50.f, "%.2f");
  if (ImGui::IsItemActivated()) app.doc.begin_step("Resize circle");
  if (changed) editor::resize_circle(app.doc, i, double(r));
  if (ImGui::IsItemDeactivated()) app.doc.end_step();
  if (ImGui::Button("Delete circle")) {
    editor::remove_circle(app.doc, i);
    app.selected_circle.reset();
  }
}

}  // namespace

void section_tools(App& app) {
  {
    // Four a row, in fixed columns so the labels line up and none is cut.
    const float col = std::max(70.f, (ImGui::GetContentRegionAvail().x) / 4.f);
    for (int t = 0; t < int(ToolKind::Count); ++t) {
      if (t % 4) ImGui::SameLine(float(t % 4) * col + ImGui::GetStyle().WindowPadding.x);
      const std::string label = std::to_string(t + 1) + " " + tool_name(ToolKind(t));
      if (ImGui::RadioButton(label.c_str(), app.tool == ToolKind(t))) app.tool = ToolKind(t);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("key %d", t + 1);
    }
    ImGui::Separator();
    switch (app.tool) {
      case ToolKind::Pan:
        ImGui::TextDisabled("drag to pan; wheel zooms; right or middle drag pans with any tool");
        break;
      case ToolKind::Brush:
      case ToolKind::Eraser:
      case ToolKind::Line:
        if (app.tool != ToolKind::Eraser) terrain_picker(app);
        ImGui::SliderInt("brush size", &app.brush_size, 1, 32);
        {
          int round = app.brush_shape == editor::BrushShape::Round;
          ImGui::RadioButton("square", &round, 0);
          ImGui::SameLine();
          ImGui::RadioButton("round", &round, 1);
          app.brush_shape = round ? editor::BrushShape::Round : editor::BrushShape::Square;
        }
        break;
      case ToolKind::Rect:
      case ToolKind::Fill: terrain_picker(app); break;
      case ToolKind::Circle: circle_editor(app); break;
      case ToolKind::Agent: break;
      case ToolKind::Count: break;
    }
    ImGui::Separator();
    if (ImGui::CollapsingHeader("Agent", ImGuiTreeNodeFlags_DefaultOpen)) agent_editor(app);
    ImGui::Separator();
    ImGui::BeginDisabled(!app.doc.can_undo());
    if (ImGui::Button("Undo")) app.doc.undo();
    ImGui::EndDisabled();
    if (app.doc.can_undo() && ImGui::IsItemHovered())
      ImGui::SetTooltip("Undo %s (Ctrl+Z)", app.doc.undo_label().c_str());
    ImGui::SameLine();
    ImGui::BeginDisabled(!app.doc.can_redo());
    if (ImGui::Button("Redo")) app.doc.redo();
    ImGui::EndDisabled();
    if (app.doc.can_redo() && ImGui::IsItemHovered())
      ImGui::SetTooltip("Redo %s (Ctrl+Y)", app.doc.redo_label().c_str());
  }
}

}  // namespace pl::app
