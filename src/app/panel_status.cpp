// Status bar: the cell under the cursor, its terrain and its search values in this frame (every
// node standing on it, read through the trace's node spaces).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/app.hpp"

namespace pl::app {

namespace {

// "closed g 3.000 h 4.000 f 7.000 parent cell (2,3)"
std::string node_line(const FrameState& s, const NodeState& n) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s g %.3f h %.3f f %.3f", node_status_name(n.status), n.g, n.h,
                n.f());
  std::string line = buf;
  if (const NodeState* p = s.parent_of(n)) line += " parent " + s.trace().label_of(p->desc);
  return line;
}

// What the search in the frame on screen knows about the hovered cell, through the trace's node
// spaces: its Cells node, or its heading nodes (the best one here, every heading in a tooltip),
// and the Corners node of the nearest grid intersection.
void search_values(const FrameState& s, Vec2 hover, int cx, int cy) {
  const Trace& t = s.trace();
  const std::vector<const NodeState*> nodes = s.nodes_at(cx, cy);
  if (nodes.size() == 1 && t.heading_index_of(nodes[0]->desc) < 0) {
    ImGui::SameLine();
    ImGui::Text("| %s", node_line(s, *nodes[0]).c_str());
  } else if (!nodes.empty()) {
    const NodeState* best = s.best_at(cx, cy);
    ImGui::SameLine();
    ImGui::Text("| %zu headings seen; best %s: %s", nodes.size(),
                heading_name(t.heading_of(best->desc)).c_str(), node_line(s, *best).c_str());
    if (!ImGui::GetIO().WantCaptureMouse) {
      ImGui::BeginTooltip();
      for (const NodeState* n : nodes)
        ImGui::Text("%-3s %s", heading_name(t.heading_of(n->desc)).c_str(), node_line(s, *n).c_str());
      ImGui::EndTooltip();
    }
  }
  const int kx = int(std::lround(hover.x)), ky = int(std::lround(hover.y));
  for (const NodeSpace& sp : t.spaces()) {
    if (sp.kind != NodeSpace::Kind::Corners || kx > sp.width || ky > sp.height) continue;
    const NodeState* n = s.node_by_id(sp.corner_id(kx, ky));
    if (!n || n->status == NodeStatus::Unseen) continue;
    ImGui::SameLine();
    ImGui::Text("| corner (%d, %d) %s", kx, ky, node_line(s, *n).c_str());
  }
}

}  // namespace

void panel_status(App& app, float x, float y, float width, float height) {
  ImGui::SetNextWindowPos({x, y});
  ImGui::SetNextWindowSize({width, height});
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {6, 4});
  if (ImGui::Begin("##status", nullptr, flags)) {
    const GridMap& map = app.scene().map;
    const View& view = app.ui.hover_view >= 0 ? *app.views[std::size_t(app.ui.hover_view)] : app.view();
    if (!app.document.load_error.empty()) {
      ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", app.document.load_error.c_str());
      ImGui::SameLine();
    }
    else if (!app.document.status_message.empty()) {
      ImGui::TextDisabled("%s", app.document.status_message.c_str());
      ImGui::SameLine();
    }
    ImGui::Text("%s%s  %dx%d  zoom %.2f  %s", app.document.doc.dirty() ? "* " : "",
                app.document.scene_path.empty() ? "(unsaved scene)" : app.document.scene_path.c_str(), map.width(),
                map.height(), view.camera.zoom(), app.tool().name());
    if (app.ui.hover_map) {
      const int cx = int(std::floor(app.ui.hover_map->x)), cy = int(std::floor(app.ui.hover_map->y));
      if (cx >= 0 && cy >= 0 && cx < map.width() && cy < map.height()) {
        ImGui::SameLine();
        ImGui::Text("| cell (%d, %d) %s", cx, cy, map.palette()[map.at(cx, cy)].name.c_str());
        const ClearanceGrid& cl = app.document.clearance_cache.get(map, app.agent_capability());
        ImGui::SameLine();
        ImGui::Text("clearance %d", int(cl[std::size_t(cy) * std::size_t(map.width()) +
                                           std::size_t(cx)]));
        if (view.cursor) search_values(view.cursor->state(), *app.ui.hover_map, cx, cy);
      }
    }
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace pl::app
