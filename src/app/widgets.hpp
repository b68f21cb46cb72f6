// Small ImGui helpers the panels share.
#pragma once

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

}  // namespace pl::app
