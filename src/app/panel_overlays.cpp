// Overlays panel: a toggle per layer, options, and the legend of what is on screen.
#include <imgui.h>

#include "app/app.hpp"
#include "viz/style.hpp"

namespace pl::app {

void panel_overlays(App& app) {
  ImGui::SetNextWindowPos({0, 480}, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize({kSideWidth, 300}, ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Overlays")) {
    for (std::size_t l = 0; l < kLayerCount; ++l) {
      bool on = app.draw_list.enabled(Layer(l));
      if (ImGui::Checkbox(layer_name(Layer(l)), &on)) app.draw_list.enable(Layer(l), on);
    }
    ImGui::Checkbox("grid lines (zoomed in)", &app.grid_lines);
    ImGui::Checkbox("parent arrows", &app.show_parent_arrows);
    if (ImGui::Button("Fit (F)")) app.fit_pending = true;
    ImGui::Separator();
    for (const LegendEntry& e : build_legend(app.draw_list, Style::standard())) {
      const ImVec4 c{e.colour.r / 255.f, e.colour.g / 255.f, e.colour.b / 255.f, e.colour.a / 255.f};
      ImGui::ColorButton(("##legend" + e.label).c_str(), c,
                         ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_AlphaPreviewHalf,
                         {14, 14});
      ImGui::SameLine();
      ImGui::TextUnformatted(e.label.c_str());
    }
  }
  ImGui::End();
}

}  // namespace pl::app
