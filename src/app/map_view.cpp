// The map views' input (pan by right/middle drag, arrow keys or the Pan tool; zoom to the cursor;
// fit; the editing tools on the left button) and the overlay lists they draw this frame.
// Input reaches a view only when ImGui does not want it (DESIGN.md pitfalls).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <imgui.h>

#include "app/app.hpp"
#include "viz/image.hpp"
#include "viz/overlays.hpp"
#include "viz/style.hpp"

namespace pl::app {

namespace {

// Distance from p to what a shape draws (segments, polylines, points, cells, circle rims).
double shape_distance(const Shape& s, Vec2 p) {
  auto seg = [](Vec2 a, Vec2 b, Vec2 q) {
    const Vec2 d = b - a;
    const double len2 = dot(d, d);
    const double u = len2 > 0 ? std::clamp(dot(q - a, d) / len2, 0.0, 1.0) : 0.0;
    return distance(a + d * u, q);
  };
  switch (s.kind) {
    case Shape::Kind::Segment:
      return seg(s.a, s.b, p);
    case Shape::Kind::Polyline: {
      double best = std::numeric_limits<double>::infinity();
      for (std::size_t i = 1; i < s.points.size(); ++i)
        best = std::min(best, seg(s.points[i - 1], s.points[i], p));
      return best;
    }
    case Shape::Kind::Cell:
      return p.x >= s.a.x && p.x <= s.a.x + 1 && p.y >= s.a.y && p.y <= s.a.y + 1 ? 0.0 : 1e9;
    case Shape::Kind::Circle:
    case Shape::Kind::Arc:
      return std::abs(distance(s.a, p) - s.radius);
    case Shape::Kind::Point:
    case Shape::Kind::Pose:
      return distance(s.a, p);
  }
  return 1e9;
}

// The phase a frame of the trace belongs to ("" before the first).
std::string phase_at(const Trace& t, std::size_t frame) {
  std::string name;
  for (const Trace::PhaseMarker& m : t.phases())
    if (m.first_frame <= frame) name = m.name;
  return name;
}

// What the nearest shape under the pointer is, in words: a failed test says where it failed
// (the phase) and what it was, a shape with a requirement which agents it serves. Only shapes
// the view draws count (the agent filter, failed tests of earlier frames when hidden).
void shape_tooltip(const App& app, const View& v, Vec2 m, double tol) {
  const ShapeRecord* best = nullptr;
  double best_d = tol;
  const Scene& scene = app.scene();
  const bool filter =
      app.ui.only_usable_shapes && v.agent >= 0 && v.agent < int(scene.agents.size());
  const Agent agent = filter ? scene.agents[std::size_t(v.agent)] : Agent{};
  const FrameState& state = v.cursor->state();
  for (const ShapeRecord& r : state.shapes()) {
    if (!r.shape.requirement.any() && r.role != Role::Rejected) continue;
    if (app.ui.hidden_roles.test(std::size_t(r.role))) continue;
    if (r.role == Role::Rejected && !app.ui.rejected_history && r.frame != state.frame()) continue;
    if (filter && !r.shape.requirement.admits(scene.capability_of(agent), agent.size)) continue;
    const double d = shape_distance(r.shape, m);
    if (d <= best_d) best_d = d, best = &r;
  }
  if (!best) return;
  std::string serves;
  if (best->shape.requirement.any()) {
    const Palette& pal = app.scene().map.palette();
    std::string terrains;
    for (const std::string& n : pal.capability_names(best->shape.requirement.capability))
      terrains += (terrains.empty() ? "" : ", ") + n;
    serves = "it serves agents that can cross " + terrains + " with size up to " +
             std::to_string(best->shape.requirement.clearance);
  }
  if (best->role == Role::Rejected) {
    // The requirement is what the tested shape serves, not why it failed: the phase says what
    // the test was for (e.g. HAA*'s "dominance (strong)" removes an edge another one serves as
    // well).
    const std::string phase = phase_at(state.trace(), best->frame);
    std::string text = "test failed at frame " + std::to_string(best->frame);
    if (!phase.empty()) text += ", in phase \"" + phase + "\"";
    if (!serves.empty()) {
      text += "\nthe tested shape: " + serves;
      // The filter let it through, so this agent could use it: the test was about something
      // else, which the phase names.
      if (filter)
        text +=
            "\n(usable by this agent: it failed the phase's test, not for lack of terrain or room)";
    }
    ImGui::SetTooltip("%s", text.c_str());
  } else {
    ImGui::SetTooltip("%s: %s", role_name(best->role), serves.c_str());
  }
}

}  // namespace

void map_view_input(App& app) {
  const ImGuiIO& io = ImGui::GetIO();
  const GridMap& map = app.scene().map;
  // In rows of side-by-side views, with a small gap: side by side unless more rows show the map
  // clearly larger (three views of a wide map stack in two rows rather than leave the height
  // empty); the last row's views share its width.
  const int n = int(app.views.size());
  const Viewport& area = app.ui.map_area;
  const int gap = n > 1 ? 4 : 0;
  const double mw = std::max(1, map.width()), mh = std::max(1, map.height());
  int rows = 1;
  double best = 0;
  for (int r = 1; r <= n; ++r) {
    const int cols = (n + r - 1) / r;
    if (r > 1 && (r - 1) * cols >= n) break;  // an empty row
    const double zw = (double(area.width - gap * (cols - 1)) / cols) / mw;
    const double zh = (double(area.height - gap * (r - 1)) / r) / mh;
    if (std::min(zw, zh) > best * 1.2) best = std::min(zw, zh), rows = r;  // only for a clear gain
  }
  const int per_row = (n + rows - 1) / rows;
  const int h = std::max(1, (area.height - gap * (rows - 1)) / rows);
  for (int i = 0; i < n; ++i) {
    View& v = *app.views[std::size_t(i)];
    const int row = i / per_row, col = i % per_row;
    const int in_row = std::min(per_row, n - row * per_row);
    const int w = std::max(1, (area.width - gap * (in_row - 1)) / in_row);
    v.viewport = {area.x + col * (w + gap), area.y + row * (h + gap), w, h};
    v.camera.set_viewport(w, h);
    // Refit when the view's size changed (the window, the compare table or its figures, another
    // view) unless the user moved the camera since the last fit.
    const View::Fitted& f = v.fitted;
    if ((f.width != w || f.height != h) && v.camera.zoom() == f.zoom &&
        v.camera.offset().x == f.offset.x && v.camera.offset().y == f.offset.y)
      v.fit_pending = true;
    if (v.fit_pending) {
      v.camera.fit(map.width(), map.height(), 16);
      v.fit_pending = false;
      v.fitted = {w, h, v.camera.zoom(), v.camera.offset()};
    }
  }
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  const Vec2 mouse_fb{io.MousePos.x * sx, io.MousePos.y * sy};
  app.ui.hover_map.reset();
  app.ui.hover_view = -1;
  if (app.ui.ignore_input) return;
  for (int i = 0; i < n; ++i) {
    const Viewport& vp = app.views[std::size_t(i)]->viewport;
    if (ImGui::IsMousePosValid() && mouse_fb.x >= vp.x && mouse_fb.y >= vp.y &&
        mouse_fb.x < vp.x + vp.width && mouse_fb.y < vp.y + vp.height)
      app.ui.hover_view = i;
  }
  // A drag keeps working in the view it started in, even past its edge.
  const int target = app.drag.active ? app.views.active : app.ui.hover_view;
  if (target >= 0) {
    View& v = *app.views[std::size_t(target)];
    const Vec2 mouse{mouse_fb.x - v.viewport.x, mouse_fb.y - v.viewport.y};
    const Vec2 m = v.camera.screen_to_map(mouse);
    if (app.ui.hover_view >= 0) app.ui.hover_map = m;
    const double px = 1.0 / v.camera.zoom();  // map units per pixel
    if (!io.WantCaptureMouse && app.ui.hover_view >= 0) {
      if (io.MouseWheel != 0) {
        v.camera.zoom_wheel(mouse, io.MouseWheel);
        app.sync_cameras(target);
      }
      const bool pan_drag =
          ImGui::IsMouseDragging(ImGuiMouseButton_Right, 0) ||
          ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 0) ||
          (!app.tool().edits() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0));
      if (pan_drag) {
        v.camera.pan({io.MouseDelta.x * sx, io.MouseDelta.y * sy});
        app.sync_cameras(target);
      }
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        app.views.active = target;
        if (app.tool().edits()) {
          app.drag = {};
          app.drag.active = true;
          app.drag.anchor = app.drag.last = cell_of(m);
          app.tool().press(app, m, px);
        }
      }
      // Right click without a drag: breakpoint menu for the cell.
      if (ImGui::IsMouseReleased(ImGuiMouseButton_Right) &&
          ImGui::GetMouseDragDelta(ImGuiMouseButton_Right).x == 0 &&
          ImGui::GetMouseDragDelta(ImGuiMouseButton_Right).y == 0 && v.cursor) {
        app.views.active = target;
        app.ui.menu_cell = cell_of(m);
        ImGui::OpenPopup("##cellmenu");
      }
    }
    if (app.ui.hover_view >= 0 && !io.WantCaptureMouse && !app.drag.active && v.cursor)
      shape_tooltip(app, v, m, 6 * px);
    if (app.drag.active) {
      if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        app.tool().drag(app, m);
        app.drag.last = cell_of(m);
      } else {
        app.tool().release(app, m);
        app.drag.active = false;
      }
    }
  } else if (app.drag.active && !ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    app.drag.active = false;
    app.document.doc.end_step();
  }
  if (!io.WantCaptureKeyboard) {
    const double step = 400.0 * io.DeltaTime;
    View& v = app.view();
    // Arrow keys pan; Left/Right step the timeline when a trace is shown, so pan needs Alt then.
    const bool lr_pan = !v.cursor || io.KeyAlt;
    Vec2 pan{};
    if (ImGui::IsKeyDown(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) pan.y += step;
    if (ImGui::IsKeyDown(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) pan.y -= step;
    if (lr_pan && ImGui::IsKeyDown(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) pan.x += step;
    if (lr_pan && ImGui::IsKeyDown(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) pan.x -= step;
    if (pan.x != 0 || pan.y != 0) {
      v.camera.pan(pan);
      app.sync_cameras(app.views.active);
    }
    if (ImGui::IsKeyPressed('F', false) && !io.KeyCtrl)
      for (auto& w2 : app.views) w2->fit_pending = true;
    app.tool().keys(app);
  }
}

namespace {

// Keeps the view's search texture (open and closed nodes that stand on cells, search_image) in
// step with the frame on screen; true when it shows that frame.
// The difference of the two views' frames on screen (what view A / view B expanded alone),
// recomputed only when either changes.
struct DiffKey {
  std::uint64_t gen_a = 0, gen_b = 0;
  std::size_t frame_a = 0, frame_b = 0;
  bool valid = false;
  bool operator==(const DiffKey&) const = default;
};
DiffKey g_diff_key;
std::array<ClosedDifference, 2> g_diff_views;

bool update_search_texture(View& v, const GridMap& map, const Style& style, bool open,
                           bool closed) {
  if (!v.renderer) return false;
  if (v.prepared_search) {
    v.renderer->adopt_search(std::move(*v.prepared_search), v.trace_generation);
    v.prepared_search.reset();
  }
  const View::SearchKey key{
      v.trace_generation, v.cursor->frame(), map.width(), map.height(), open, closed, true};
  if (!(key == v.search_key)) {
    // Incremental along the timeline: only the cells whose nodes changed status are repainted
    // and uploaded (SearchTexture).
    v.renderer->update_search(v.cursor->state(), v.trace_generation, map.width(), map.height(),
                              style, open, closed);
    v.search_has_open = v.renderer->search_cells().any_open();
    v.search_has_closed = v.renderer->search_cells().any_closed();
    v.search_key = key;
  }
  return true;
}

void build_tool_preview(const App& app, DrawList& dl, const Style& style) {
  if (!app.ui.hover_map) return;
  dl.set_layer(Layer::ToolPreview);
  app.tool().preview(app, dl, style.colour(Role::Highlight), cell_of(*app.ui.hover_map));
}

}  // namespace

void map_view_build(App& app) {
  const Style& style = Style::standard();
  const Scene& scene = app.scene();
  const GridMap& map = scene.map;
  // The difference overlay needs two grid searches side by side.
  const bool diff = app.ui.show_difference && app.views.size() == 2 && app.views[0]->cursor &&
                    app.views[1]->cursor;
  if (diff) {
    const View &a = *app.views[0], &b = *app.views[1];
    const DiffKey key{a.trace_generation, b.trace_generation, a.cursor->frame(), b.cursor->frame(),
                      true};
    if (!(key == g_diff_key)) {
      const ClosedDifference d =
          closed_difference(a.cursor->state(), b.cursor->state(), map.width(), map.height());
      g_diff_views[0] = {d.only_a, {}, d.both};
      g_diff_views[1] = {{}, d.only_b, d.both};
      g_diff_key = key;
    }
  }
  for (std::size_t vi = 0; vi < app.views.size(); ++vi) {
    View& v = *app.views[vi];
    DrawList& dl = v.draw_list;
    dl.clear();
    for (std::size_t l = 0; l < kLayerCount; ++l) dl.enable(Layer(l), app.ui.layers[l]);
    const editor::Rect r = v.camera.visible_map_rect();
    const MapRect visible{r.x0, r.y0, r.x1, r.y1};
    // Grid lines are drawn by the renderer in the terrain's pass (one pass, however many lines);
    // the draw list only names them for the legend.
    const bool grid_lines = app.ui.grid_lines && v.camera.zoom() >= 8 && dl.wants(Layer::Terrain);
    if (v.renderer)
      v.renderer->grid = {grid_lines ? 1.0f : 0.0f, style.colour(StyleItem::GridLine)};
    if (grid_lines) {
      dl.set_layer(Layer::Terrain);
      dl.uses(StyleKey::of(StyleItem::GridLine));
    }
    draw_scene_circles(dl, scene.circles, style);
    // A run made for another map size cannot be drawn over this map.
    const bool run_fits = v.shown_width == map.width() && v.shown_height == map.height();
    // Zoomed in far enough for g, h, f in the cells.
    const bool numbers_shown =
        v.cursor && run_fits && app.ui.show_search_numbers && v.camera.zoom() >= 40;
    const bool clearance_shown = app.ui.show_clearance && v.camera.zoom() >= 20;
    SearchNumberOptions numbers;
    numbers.size_px = float(std::min(14.0, v.camera.zoom() / 4.5));
    // A line a heading needs a cell about 150 pixels wide.
    numbers.every_heading = v.camera.zoom() >= 150;
    if (numbers.every_heading) numbers.size_px = float(std::min(13.0, v.camera.zoom() / 14));
    if (clearance_shown) {
      const ClearanceGrid& grid =
          app.document.clearance_cache.get(map, app.overlay_capability(), app.ui.clearance_metric);
      // With g, h and f in the cells, clearance takes the top of four lines, in their size.
      ClearanceLabelOptions labels;
      if (numbers_shown) {
        numbers.below_top_line = labels.top_line = true;
        if (!numbers.every_heading) numbers.size_px = float(std::min(13.0, v.camera.zoom() / 5));
        labels.size_px = numbers.size_px;
      }
      draw_clearance_numbers(dl, grid, map.width(), map.height(), visible, style, labels);
    }
    if (v.cursor && run_fits) {
      SearchDrawOptions o;
      o.grid_width = map.width();
      o.grid_height = map.height();
      o.visible = visible;
      o.parent_arrows = app.ui.show_parent_arrows && v.camera.zoom() >= 12;
      o.hidden_roles = app.ui.hidden_roles;
      o.rejected_history = app.ui.rejected_history;
      o.passed_history = app.ui.passed_history;
      if (app.ui.only_usable_shapes && v.agent >= 0 && v.agent < int(scene.agents.size())) {
        const Agent& a = scene.agents[std::size_t(v.agent)];
        o.agent = SearchDrawOptions::AgentFilter{scene.capability_of(a), a.size};
      }
      // Nodes on cells (Cells, and the cells of heading nodes) come from a texture uploaded
      // only when the frame changes, not one rectangle per cell each frame; heading wedges,
      // corners and free points are primitives (wedges only once a cell is big enough to hold
      // them legibly).
      const bool textured = update_search_texture(v, map, style, o.open, o.closed);
      if (v.renderer) v.renderer->show_search = textured;
      if (textured) {
        dl.set_layer(Layer::Search);
        if (v.search_has_closed) dl.uses(StyleKey::of(Role::Closed));
        if (v.search_has_open) dl.uses(StyleKey::of(Role::Open));
        o.cell_fills = false;
      }
      o.heading_wedges = v.camera.zoom() >= 10;
      // Each view marks what it expanded and the other did not.
      // With g, h, f in the cells, the hatch shrinks to a corner tick.
      if (diff)
        draw_closed_difference(dl, g_diff_views[vi], map.width(), style, visible,
                               numbers_shown ? 0.3 : 1.0);
      draw_search_state(dl, v.cursor->state(), style, o);
      if (numbers_shown) {
        draw_search_numbers(dl, v.cursor->state(), map.width(), map.height(), visible, style,
                            numbers);
      }
    } else {
      if (v.renderer) v.renderer->show_search = false;
      if (v.result.found && run_fits) draw_path(dl, v.result.pieces, style);
    }
    dl.set_layer(Layer::ToolPreview);
    for (const Views::Breakpoint& b : app.views.breakpoints) {
      const Rgba c = style.colour(b.on_open ? Role::Open : Role::Current);
      dl.rect_outline({double(b.x), double(b.y)}, {b.x + 1.0, b.y + 1.0}, c, 3.f);
      // A breakpoint on one heading shows it, as the space of this view's trace names it.
      if (b.heading >= 0 && v.cursor)
        for (const NodeSpace& sp : v.cursor->trace().spaces())
          if (sp.kind == NodeSpace::Kind::CellHeadings && b.heading < sp.headings) {
            draw_heading_wedge(dl, {b.x, b.y}, sp.heading_of_index(b.heading), sp.headings,
                               c.with_alpha(120), 1.0);
            break;
          }
    }
    // The cell of the breakpoint that stopped the timeline, while this view shows that frame.
    if (const Views::Stop* stop = app.stop_shown(v)) {
      const Rgba c = style.colour(Role::Highlight);
      const Views::Breakpoint& b = stop->breakpoint;
      dl.rect({double(b.x), double(b.y)}, {b.x + 1.0, b.y + 1.0}, c.with_alpha(120));
      dl.rect_outline({b.x - 0.5, b.y - 0.5}, {b.x + 1.5, b.y + 1.5}, c, 3.f);
    }
    for (std::size_t i = 0; i < scene.agents.size(); ++i) {
      AgentDrawOptions o;
      o.selected = int(i) == app.agent;
      draw_agent(dl, scene.agents[i], style, o);
    }
    drive_build(app, v, dl, style);  // the agent driving its path (panel_drive.cpp)
    if (int(vi) == app.ui.hover_view || (app.drag.active && int(vi) == app.views.active))
      build_tool_preview(app, dl, style);
  }
}

}  // namespace pl::app
