#include "app/clip_report.hpp"

#include <algorithm>
#include <cstdio>

#include <imgui.h>
#include <imgui_internal.h>

namespace pl::app {

namespace {

std::string quoted(const char* s) {
  std::string out = "\"";
  for (; *s; ++s) {
    const char c = *s;
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out + "\"";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

std::string clip_report_json() {
  ImGuiContext& g = *GImGui;
  std::string out = "{\"windows\": [";
  bool first = true;
  for (ImGuiWindow* w : g.Windows) {
    // Windows shown this frame; tooltips and popups size themselves to their contents, and
    // ImGui's implicit "Debug" window is never shown.
    if (!w->WasActive || w->Hidden || w->LastFrameActive != g.FrameCount) continue;
    if (w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) continue;
    if (std::string(w->Name).rfind("Debug##", 0) == 0) continue;
    // Items reach CursorMaxPos; they are clipped to InnerClipRect. A scrollbar shown on an axis
    // makes the overflow on it reachable.
    const ImVec2 reach = w->DC.CursorMaxPos;
    const ImRect clip = w->InnerClipRect;
    const bool clipped_x = !w->ScrollbarX && reach.x > clip.Max.x + 0.5f;
    // (A window showing only a menu bar, the main one, has an empty clip rectangle below it.)
    const bool clipped_y = !w->ScrollbarY && clip.Max.y > clip.Min.y && reach.y > clip.Max.y + 0.5f;
    out += first ? "" : ", ";
    first = false;
    out += "{\"name\": " + quoted(w->Name) + ", \"rect\": [" + number(w->Pos.x) + ", " + number(w->Pos.y) +
           ", " + number(w->Size.x) + ", " + number(w->Size.y) + "], \"clip\": [" + number(clip.Min.x) + ", " + number(clip.Min.y) +
           ", " + number(clip.Max.x) + ", " + number(clip.Max.y) + "], \"reach\": [" + number(reach.x) + ", " +
           number(reach.y) + "], \"scrollbar\": [" + (w->ScrollbarX ? "true" : "false") + ", " +
           (w->ScrollbarY ? "true" : "false") + "], \"clipped\": " + (clipped_x || clipped_y ? "true" : "false") +
           "}";
  }
  out += "], \"tables\": [";
  first = true;
  for (int n = 0; n < g.Tables.GetMapSize(); ++n) {
    ImGuiTable* t = g.Tables.TryGetMapData(n);
    if (!t || t->LastFrameActive != g.FrameCount || !t->OuterWindow) continue;
    out += first ? "" : ", ";
    first = false;
    out += "{\"window\": " + quoted(t->OuterWindow->Name) + ", \"columns\": [";
    bool first_column = true;
    for (int c = 0; c < t->ColumnsCount; ++c) {
      const ImGuiTableColumn& col = t->Columns[c];
      if (!col.IsEnabled) continue;
      // What the cells and the header reached, from where the column's contents start.
      const float reach = std::max({col.ContentMaxXFrozen, col.ContentMaxXUnfrozen, col.ContentMaxXHeadersIdeal});
      const float needed = std::max(0.f, reach - col.WorkMinX);
      const float width = col.WorkMaxX - col.WorkMinX;
      const char* name = ImGui::TableGetColumnName(t, c);
      out += std::string(first_column ? "" : ", ") + "{\"name\": " + quoted(name ? name : "") + ", \"needed\": " +
             number(needed) + ", \"width\": " + number(width) + ", \"clipped\": " +
             (needed > width + 0.5f ? "true" : "false") + "}";
      first_column = false;
    }
    out += "]}";
  }
  return out + "]}";
}

}  // namespace pl::app
