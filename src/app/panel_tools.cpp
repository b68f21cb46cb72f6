// Tools panel: the editing tool (RecastDemo-style tool objects in tools/, each drawing its own options), its options,
// and the editors of the selected circle and agent. Every change goes through editor:: calls,
// so each is one undo step.
#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/app.hpp"
#include "app/widgets.hpp"

namespace pl::app {
namespace {

void agent_editor(App& app) {
  const Scene& scene = app.scene();
  if (ImGui::Button("Add agent")) {
    Agent a;
    a.name = "agent " + std::to_string(scene.agents.size() + 1);
    const Vec2 c{scene.map.width() * 0.5, scene.map.height() * 0.5};
    a.start = a.goal = {std::floor(c.x) + 0.5, std::floor(c.y) + 0.5, 0};
    app.select_agent(int(editor::add_agent(app.document.doc, a)));
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
    editor::remove_agent(app.document.doc, i);
    app.select_agent(std::max(0, app.agent - 1));
    for (auto& v : app.views) v->agent = std::clamp(v->agent, 0, std::max(0, int(app.scene().agents.size()) - 1));
    return;
  }
  const Agent& a = scene.agents[i];
  char name[64];
  std::snprintf(name, sizeof name, "%s", a.name.c_str());
  if (ImGui::InputText("name", name, sizeof name, ImGuiInputTextFlags_EnterReturnsTrue))
    editor::set_agent_name(app.document.doc, i, name);
  // A setting no planner of the views reads is greyed (still editable, for the next planner);
  // its tooltip says which planners read it, from their registrations.
  const AgentInputs used = views_agent_inputs(app);
  auto unused_begin = [&](AgentInput input) {
    const bool unused = !reads(used, input);
    if (unused) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, ImGui::GetStyle().Alpha * 0.45f);
    return unused;
  };
  auto unused_end = [&](bool unused, AgentInput input, const char* what) {
    if (unused) ImGui::PopStyleVar();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\n%s%s", what, agent_input_readers(input).c_str(),
                        unused ? "\n(no planner in the views: it changes nothing on screen)" : "");
  };
  int size = a.size;
  bool unused = unused_begin(AgentInput::Size);
  // Drag fields, not sliders: a slider's handle covers its value.
  if (ImGui::DragInt("size", &size, 0.05f, 1, 8, "%d", ImGuiSliderFlags_AlwaysClamp))
    editor::set_agent_size(app.document.doc, i, size);
  unused_end(unused, AgentInput::Size, "Side of the square agent in cells");
  const Palette& pal = scene.map.palette();
  CapabilityMask cap = scene.capability_of(a);
  unused = unused_begin(AgentInput::Capability);
  ImGui::TextUnformatted("can traverse:");
  unused_end(unused, AgentInput::Capability, "The terrains the agent may cross");
  unused = unused_begin(AgentInput::Capability);
  int shown = 0;
  for (int t = 0; t < pal.size(); ++t) {
    if (pal[TerrainId(t)].obstacle) continue;
    bool on = (cap >> t) & 1u;
    if (shown++ % 3) ImGui::SameLine();
    if (ImGui::Checkbox((pal[TerrainId(t)].name + "##cap").c_str(), &on)) {
      const CapabilityMask next = on ? (cap | (1u << t)) : (cap & ~(1u << t));
      if (next) editor::set_agent_capability(app.document.doc, i, next);  // an agent must move on something
    }
  }
  if (unused) ImGui::PopStyleVar();
  // Sliders edit continuously; each change is its own small step, so one drag is grouped by
  // ImGui's activation: open a step while the item is active.
  auto slider = [&](const char* label, double value, float lo, float hi, auto apply) {
    float v = float(value);
    const bool changed = ImGui::DragFloat(label, &v, (hi - lo) / 400.f, lo, hi, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemActivated()) app.document.doc.begin_step(label);
    if (changed) apply(double(v));
    if (ImGui::IsItemDeactivated()) app.document.doc.end_step();
  };
  unused = unused_begin(AgentInput::Radius);
  slider("radius", a.radius, 0.f, 10.f, [&](double v) { editor::set_agent_radius(app.document.doc, i, v); });
  unused_end(unused, AgentInput::Radius, "Radius of the round agent (map units)");
  unused = unused_begin(AgentInput::TurningRadius);
  slider("turning radius", a.turning_radius, 0.f, 20.f,
         [&](double v) { editor::set_agent_turning_radius(app.document.doc, i, v); });
  unused_end(unused, AgentInput::TurningRadius, "Smallest radius of a turn; 0 turns on the spot");
  unused = unused_begin(AgentInput::Headings);
  slider("start heading", a.start.heading * 180 / kPi, 0.f, 359.f, [&](double v) {
    editor::set_agent_heading(app.document.doc, i, editor::Endpoint::Start, v * kPi / 180);
  });
  unused_end(unused, AgentInput::Headings, "Heading at the start, degrees (0 = east)");
  unused = unused_begin(AgentInput::Headings);
  slider("goal heading", a.goal.heading * 180 / kPi, 0.f, 359.f, [&](double v) {
    editor::set_agent_heading(app.document.doc, i, editor::Endpoint::Goal, v * kPi / 180);
  });
  unused_end(unused, AgentInput::Headings, "Heading at the goal, degrees (0 = east)");
  bool reverse = a.can_reverse;
  unused = unused_begin(AgentInput::Reverse);
  if (ImGui::Checkbox("can reverse", &reverse)) editor::set_agent_can_reverse(app.document.doc, i, reverse);
  unused_end(unused, AgentInput::Reverse, "The agent may drive backwards");
  ImGui::TextWrapped("start (%.1f, %.1f)  goal (%.1f, %.1f)", a.start.x, a.start.y, a.goal.x, a.goal.y);
  int which = app.tool_state.place_endpoint == editor::Endpoint::Start ? 0 : 1;
  ImGui::TextUnformatted("click places:");
  ImGui::SameLine();
  ImGui::RadioButton("start", &which, 0);
  ImGui::SameLine();
  ImGui::RadioButton("goal", &which, 1);
  app.tool_state.place_endpoint = which == 0 ? editor::Endpoint::Start : editor::Endpoint::Goal;
  hint("drag a start/goal to move it, its arrow tip to turn it");
}

}  // namespace

void section_tools(App& app) {
  {
    // Four a row, in fixed columns so the labels line up and none is cut.
    const float col = std::max(70.f, (ImGui::GetContentRegionAvail().x) / 4.f);
    for (int t = 0; t < int(app.tools.size()); ++t) {
      if (t % 4) ImGui::SameLine(float(t % 4) * col + ImGui::GetStyle().WindowPadding.x);
      const std::string label = std::to_string(t + 1) + " " + app.tools[std::size_t(t)]->name();
      if (ImGui::RadioButton(label.c_str(), app.tool_index == t)) app.tool_index = t;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("key %d", t + 1);
    }
    ImGui::Separator();
    app.tool().panel(app);
    ImGui::Separator();
    if (ImGui::CollapsingHeader("Agent", ImGuiTreeNodeFlags_DefaultOpen)) agent_editor(app);
    ImGui::Separator();
    ImGui::BeginDisabled(!app.document.doc.can_undo());
    if (ImGui::Button("Undo")) app.document.doc.undo();
    ImGui::EndDisabled();
    if (app.document.doc.can_undo() && ImGui::IsItemHovered())
      ImGui::SetTooltip("Undo %s (Ctrl+Z)", app.document.doc.undo_label().c_str());
    ImGui::SameLine();
    ImGui::BeginDisabled(!app.document.doc.can_redo());
    if (ImGui::Button("Redo")) app.document.doc.redo();
    ImGui::EndDisabled();
    if (app.document.doc.can_redo() && ImGui::IsItemHovered())
      ImGui::SetTooltip("Redo %s (Ctrl+Y)", app.document.doc.redo_label().c_str());
  }
}

}  // namespace pl::app
