// Status bar: the cell under the cursor, its terrain and its search values in this frame (every
// node standing on it, read through the trace's node spaces).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/app.hpp"
#include "app/widgets.hpp"

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
std::string search_values(const FrameState& s, Vec2 hover, int cx, int cy) {
  const Trace& t = s.trace();
  std::string out;
  const std::vector<const NodeState*> nodes = s.nodes_at(cx, cy);
  if (nodes.size() == 1 && t.heading_index_of(nodes[0]->desc) < 0) {
    out += " | " + node_line(s, *nodes[0]);
  } else if (!nodes.empty()) {
    const NodeState* best = s.best_at(cx, cy);
    out += " | " + std::to_string(nodes.size()) + " headings seen; best " +
           heading_name(t.heading_of(best->desc)) + ": " + node_line(s, *best);
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
    out += " | corner (" + std::to_string(kx) + ", " + std::to_string(ky) + ") " + node_line(s, *n);
  }
  return out;
}

// `text` cut to `width` pixels with "..." at its end; the whole of it in a tooltip when cut.
void text_fitted(const std::string& text, float width, ImVec4 colour) {
  if (width <= 0) return;
  std::string shown = text;
  if (ImGui::CalcTextSize(text.c_str()).x > width) {
    std::size_t n = text.size();
    while (n > 0 && ImGui::CalcTextSize((text.substr(0, n) + "...").c_str()).x > width) --n;
    shown = text.substr(0, n) + "...";
  }
  ImGui::TextColored(colour, "%s", shown.c_str());
  if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

}  // namespace

// One line, what is under the pointer first (the cell, its terrain and clearance, the search's
// values there), then the document (file name once: the last file message names it, else the
// file's name is shown), zoom and tool, then the last message; cut with "..." where the window
// ends, never clipped mid-letter.
void panel_status(App& app, float x, float y, float width, float height) {
  ImGui::SetNextWindowPos({x, y});
  ImGui::SetNextWindowSize({width, height});
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {6, 4});
  if (begin_opaque_panel("##status", flags, app.ui.opaque_panels)) {
    const GridMap& map = app.scene().map;
    const View& view = app.ui.hover_view >= 0 ? *app.views[std::size_t(app.ui.hover_view)] : app.view();
    std::string hover;
    if (app.ui.hover_map) {
      const int cx = int(std::floor(app.ui.hover_map->x)), cy = int(std::floor(app.ui.hover_map->y));
      if (cx >= 0 && cy >= 0 && cx < map.width() && cy < map.height()) {
        const ClearanceGrid& cl = app.document.clearance_cache.get(map, app.agent_capability());
        hover = "cell (" + std::to_string(cx) + ", " + std::to_string(cy) + ") " +
                map.palette()[map.at(cx, cy)].name + " clearance " +
                std::to_string(int(cl[std::size_t(cy) * std::size_t(map.width()) + std::size_t(cx)]));
        if (view.cursor) hover += search_values(view.cursor->state(), *app.ui.hover_map, cx, cy);
      }
    }
    // The file the document came from (a scene, or the map or scenario it was opened from).
    const std::string& path = !app.document.scene_path.empty() ? app.document.scene_path : app.document.opened_path;
    const std::string file = path.empty() ? "(unsaved scene)" : std::filesystem::path(path).filename().string();
    const std::string& message = app.document.load_error.empty() ? app.document.status_message : app.document.load_error;
    char doc[256];
    std::snprintf(doc, sizeof doc, "%s%s%s%dx%d  zoom %.2f  %s", app.document.doc.dirty() ? "* " : "",
                  message.find(file) == std::string::npos ? file.c_str() : "",
                  message.find(file) == std::string::npos ? "  " : "", map.width(), map.height(),
                  view.camera.zoom(), app.tool().name());
    const ImVec4 text = ImGui::GetStyle().Colors[ImGuiCol_Text];
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    auto left = [&] { return ImGui::GetWindowContentRegionMax().x - ImGui::GetCursorPosX(); };
    if (!hover.empty()) {
      text_fitted(hover + "  |", left(), text);
      ImGui::SameLine(0, gap);
    }
    text_fitted(doc, left(), text);
    if (!message.empty()) {
      ImGui::SameLine(0, gap);
      text_fitted(message, left(), app.document.load_error.empty() ? ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]
                                                                  : ImVec4{1, 0.4f, 0.4f, 1});
    }
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace pl::app
