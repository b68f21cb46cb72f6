// The map view's input (pan by drag or arrow keys, zoom to the cursor, fit) and the overlay
// list it draws this frame. Input reaches the map only when ImGui does not want it.
#include <cmath>

#include <imgui.h>

#include "app/app.hpp"
#include "viz/overlays.hpp"
#include "viz/style.hpp"

namespace pl::app {

void map_view_input(App& app) {
  const ImGuiIO& io = ImGui::GetIO();
  const GridMap& map = app.scene.map;
  const Viewport& vp = app.map_viewport;
  app.camera.set_viewport(vp.width, vp.height);
  if (app.fit_pending) {
    app.camera.fit(map.width(), map.height(), 16);
    app.fit_pending = false;
  }
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  const Vec2 mouse{io.MousePos.x * sx - vp.x, io.MousePos.y * sy - vp.y};
  const bool inside = mouse.x >= 0 && mouse.y >= 0 && mouse.x < vp.width && mouse.y < vp.height &&
                      ImGui::IsMousePosValid();
  app.hover_map.reset();
  if (app.ignore_input) return;
  if (!io.WantCaptureMouse && inside) {
    app.hover_map = app.camera.screen_to_map(mouse);
    if (io.MouseWheel != 0) app.camera.zoom_wheel(mouse, io.MouseWheel);
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0) ||
        ImGui::IsMouseDragging(ImGuiMouseButton_Right, 0) ||
        ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 0))
      app.camera.pan({io.MouseDelta.x * sx, io.MouseDelta.y * sy});
  }
  if (!io.WantCaptureKeyboard) {
    const double step = 400.0 * io.DeltaTime;
    // Arrow keys pan; Left/Right step the timeline when a trace is shown, so pan needs Alt then.
    const bool lr_pan = !app.cursor || io.KeyAlt;
    if (ImGui::IsKeyDown(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) app.camera.pan({0, step});
    if (ImGui::IsKeyDown(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) app.camera.pan({0, -step});
    if (lr_pan && ImGui::IsKeyDown(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) app.camera.pan({step, 0});
    if (lr_pan && ImGui::IsKeyDown(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) app.camera.pan({-step, 0});
    if (ImGui::IsKeyPressed('F', false)) app.fit_pending = true;
  }
}

void map_view_build(App& app) {
  DrawList& dl = app.draw_list;
  dl.clear();
  const Style& style = Style::standard();
  const GridMap& map = app.scene.map;
  const editor::Rect r = app.camera.visible_map_rect();
  const MapRect visible{r.x0, r.y0, r.x1, r.y1};
  if (app.grid_lines && app.camera.zoom() >= 8)
    draw_grid_lines(dl, map.width(), map.height(), visible, style);
  draw_scene_circles(dl, app.scene.circles, style);
  if (app.show_clearance && app.camera.zoom() >= 20) {
    const ClearanceGrid& grid =
        app.clearance_cache.get(map, app.overlay_capability(), app.clearance_metric);
    draw_clearance_numbers(dl, grid, map.width(), map.height(), visible, style);
  }
  if (app.cursor) {
    SearchDrawOptions o;
    o.grid_width = map.width();
    o.grid_height = map.height();
    o.visible = visible;
    o.parent_arrows = app.show_parent_arrows && app.camera.zoom() >= 12;
    draw_search_state(dl, app.cursor->state(), style, o);
  } else if (app.result.found) {
    draw_path(dl, app.result.pieces, style);
  }
  for (std::size_t i = 0; i < app.scene.agents.size(); ++i) {
    AgentDrawOptions o;
    o.selected = int(i) == app.agent;
    draw_agent(dl, app.scene.agents[i], style, o);
  }
}

}  // namespace pl::app
