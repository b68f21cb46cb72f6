#include "app/tools/tool.hpp"

#include <cmath>
#include <string>

#include <imgui.h>

#include "app/app.hpp"

namespace pl::app {

void Tool::press(App&, Vec2, double) {}
void Tool::drag(App&, Vec2) {}
void Tool::release(App&, Vec2) {}
void Tool::preview(const App&, DrawList&, Rgba, editor::Cell) const {}
void Tool::panel(App&) {}
void Tool::keys(App&) {}

editor::Cell cell_of(Vec2 p) { return {int(std::floor(p.x)), int(std::floor(p.y))}; }

void outline_cells(DrawList& dl, const std::vector<editor::Cell>& cells, Rgba colour) {
  for (const editor::Cell& k : cells)
    dl.rect_outline({double(k.x), double(k.y)}, {k.x + 1.0, k.y + 1.0}, colour, 1.5f);
}

namespace {
ImVec4 terrain_colour(const Terrain& t) {
  return {t.colour.r / 255.f, t.colour.g / 255.f, t.colour.b / 255.f, 1.f};
}
}  // namespace

void terrain_picker(App& app) {
  const Palette& pal = app.scene().map.palette();
  TerrainId& paint = app.tool_state.paint_terrain;
  for (int t = 0; t < pal.size(); ++t) {
    const Terrain& type = pal[TerrainId(t)];
    if (t) ImGui::SameLine();
    const bool chosen = paint == TerrainId(t);
    if (chosen) ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 3.f);
    if (ImGui::ColorButton(("##terrain" + std::to_string(t)).c_str(), terrain_colour(type),
                           ImGuiColorEditFlags_NoTooltip, {28, 28}))
      paint = TerrainId(t);
    if (chosen) ImGui::PopStyleVar();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s (cost %g)%s", type.name.c_str(), type.cost, type.obstacle ? ", obstacle" : "");
  }
  ImGui::Text("paint: %s", pal[paint].name.c_str());
}

void brush_options(App& app) {
  ToolState& s = app.tool_state;
  ImGui::DragInt("brush size", &s.brush_size, 0.1f, 1, 32, "%d", ImGuiSliderFlags_AlwaysClamp);
  int round = s.brush_shape == editor::BrushShape::Round;
  ImGui::RadioButton("square", &round, 0);
  ImGui::SameLine();
  ImGui::RadioButton("round", &round, 1);
  s.brush_shape = round ? editor::BrushShape::Round : editor::BrushShape::Square;
}

}  // namespace pl::app
