// The map view's input (pan by drag or arrow keys, zoom to the cursor, fit) and the overlay
// list it draws this frame. Input reaches the map only when ImGui does not want it.
#include <cmath>
#include <optional>

#include <imgui.h>

#include "app/app.hpp"
#include "viz/image.hpp"
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

namespace {

// Open and closed nodes of `state` as one texel per grid cell in the style's colours (what
// draw_search_state's per-cell rectangles would paint), or nullopt when some open or closed
// node is not a grid cell: such frames keep the vector path.
std::optional<Image> search_cells_image(const FrameState& state, int width, int height,
                                        const Style& style, bool open, bool closed,
                                        bool& any_open, bool& any_closed) {
  any_open = any_closed = false;
  Image image(width, height);
  const Rgba open_c = style.colour(Role::Open), closed_c = style.colour(Role::Closed);
  for (const NodeState& n : state.nodes()) {
    const bool is_open = n.status == NodeStatus::Open, is_closed = n.status == NodeStatus::Closed;
    if (!(is_open && open) && !(is_closed && closed)) continue;
    const auto cell = node_cell(n, width, height);
    if (!cell) return std::nullopt;
    image.set(cell->x, cell->y, is_open ? open_c : closed_c);
    (is_open ? any_open : any_closed) = true;
  }
  return image;
}

// Keeps the renderer's search texture in step with the frame on screen; true when it shows
// that frame's open and closed cells.
bool update_search_texture(App& app, const Style& style, bool open, bool closed) {
  if (!app.renderer) return false;
  const GridMap& map = app.scene.map;
  const App::SearchKey key{app.trace_generation, app.cursor->frame(), map.width(), map.height(),
                           open, closed, true};
  if (!(key == app.search_key)) {
    auto image = search_cells_image(app.cursor->state(), map.width(), map.height(), style, open,
                                    closed, app.search_has_open, app.search_has_closed);
    app.search_texture_ok = image.has_value();
    if (image) app.renderer->set_search(*image);
    app.search_key = key;
  }
  return app.search_texture_ok;
}

}  // namespace

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
    // Grid searches: open and closed cells come from a texture uploaded only when the frame
    // changes, not one rectangle per cell each frame.
    const bool textured = update_search_texture(app, style, o.open, o.closed);
    if (app.renderer) app.renderer->show_search = textured;
    if (textured) {
      dl.set_layer(Layer::Search);
      if (app.search_has_closed) dl.uses(StyleKey::of(Role::Closed));
      if (app.search_has_open) dl.uses(StyleKey::of(Role::Open));
      o.open = o.closed = false;
    }
    draw_search_state(dl, app.cursor->state(), style, o);
  } else if (app.result.found) {
    draw_path(dl, app.result.pieces, style);
  }
  if (!app.cursor && app.renderer) app.renderer->show_search = false;
  for (std::size_t i = 0; i < app.scene.agents.size(); ++i) {
    AgentDrawOptions o;
    o.selected = int(i) == app.agent;
    draw_agent(dl, app.scene.agents[i], style, o);
  }
}

}  // namespace pl::app
