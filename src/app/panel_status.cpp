// Status bar: the cell under the cursor, its terrain and its search values in this frame.
#include <cmath>

#include <imgui.h>

#include "app/app.hpp"
#include "viz/image.hpp"

namespace pl::app {

void panel_status(App& app, float x, float y, float width, float height) {
  ImGui::SetNextWindowPos({x, y});
  ImGui::SetNextWindowSize({width, height});
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {6, 4});
  if (ImGui::Begin("##status", nullptr, flags)) {
    const GridMap& map = app.scene().map;
    const View& view = app.hover_view >= 0 ? *app.views[std::size_t(app.hover_view)] : app.view();
    if (!app.load_error.empty()) {
      ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", app.load_error.c_str());
      ImGui::SameLine();
    }
    else if (!app.status_message.empty()) {
      ImGui::TextDisabled("%s", app.status_message.c_str());
      ImGui::SameLine();
    }
    ImGui::Text("%s%s  %dx%d  zoom %.2f  %s", app.doc.dirty() ? "* " : "",
                app.scene_path.empty() ? "(unsaved scene)" : app.scene_path.c_str(), map.width(),
                map.height(), view.camera.zoom(), tool_name(app.tool));
    if (app.hover_map) {
      const int cx = int(std::floor(app.hover_map->x)), cy = int(std::floor(app.hover_map->y));
      if (cx >= 0 && cy >= 0 && cx < map.width() && cy < map.height()) {
        ImGui::SameLine();
        ImGui::Text("| cell (%d, %d) %s", cx, cy, map.palette()[map.at(cx, cy)].name.c_str());
        const ClearanceGrid& cl = app.clearance_cache.get(map, app.agent_capability());
        ImGui::SameLine();
        ImGui::Text("clearance %d", int(cl[std::size_t(cy) * std::size_t(map.width()) +
                                           std::size_t(cx)]));
        if (view.cursor) {
          const FrameState& s = view.cursor->state();
          if (const NodeState* n = s.node_by_id(std::uint32_t(cy * map.width() + cx));
              n && node_cell(*n, map.width(), map.height())) {
            ImGui::SameLine();
            ImGui::Text("| %s g %.3f h %.3f f %.3f", node_status_name(n->status), n->g, n->h,
                        n->f());
            if (const NodeState* p = s.parent_of(*n)) {
              ImGui::SameLine();
              ImGui::Text("parent (%.1f, %.1f)", double(p->desc.x), double(p->desc.y));
            }
          }
        }
      }
    }
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace pl::app
