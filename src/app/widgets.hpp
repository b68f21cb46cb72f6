// Small ImGui helpers the panels share.
#pragma once

#include <vector>

#include <imgui.h>

namespace pl::app {

// A hint in the disabled colour, wrapped at the window's edge (never clipped).
inline void hint(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

// Begin() of a window that always has a solid rectangle behind it (the side column, the status
// line): ImGui draws it without its background, and `x, y, w, h` receive the window's box
// (ImGui units), which the renderer clears to the window colour instead. Under a software
// rasteriser a blended full-height quad costs ~60 instructions a pixel, a clear almost nothing:
// ~18 M instructions a frame at 1280 x 800. For windows nothing else is drawn under (the views
// never reach them) and with square corners (the style's WindowRounding is 0).
template <class Rect>
bool begin_opaque_panel(const char* name, ImGuiWindowFlags flags, std::vector<Rect>& boxes) {
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  if (bg.w < 1.0f) return ImGui::Begin(name, nullptr, flags);  // not a solid rectangle
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4{bg.x, bg.y, bg.z, 0});
  const bool open = ImGui::Begin(name, nullptr, flags);
  ImGui::PopStyleColor();
  const ImVec2 p = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  boxes.push_back({p.x, p.y, size.x, size.y, bg.x, bg.y, bg.z});
  return open;
}

}  // namespace pl::app
