#include "app/frame.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <glad/gl.h>
#include <imgui.h>
#include <stb_image_write.h>

#include "app/app.hpp"
#include "core/io.hpp"
#include "viz/image.hpp"

namespace pl::app {

void refresh_runs(App& app) {
  if (app.views.size() > 1) app.update_reference();
  if (app.views.auto_rerun)
    for (auto& v : app.views)
      if (!v->run && app.stale(*v)) app.start_run(*v);
}

void layout_map_area(App& app, const FrameSize& fb) {
  const int side = int(app.ui.side_width * fb.scale);
  const int top = int(app.ui.menu_height * fb.scale);
  const int status_h = int(kStatusHeight * fb.scale);
  const int compare_h = int(compare_height(app) * fb.scale);
  app.ui.map_area = {side, top, std::max(1, fb.width - side), std::max(1, fb.height - status_h - top - compare_h)};
}

void view_titles(App& app, float scale) {
  // Labels go to ImGui's background list, which has the font: above the map, under panels.
  for (auto& v : app.views) {
    MapRenderer::labels(v->camera, v->viewport, v->draw_list, ImGui::GetBackgroundDrawList(), scale);
    // Each view's name in its corner, with a stale mark when the scene changed since.
    if (app.views.size() > 1 || v->has_run) {
      std::string title = v->has_run ? v->shown_planner : v->planner;
      if (app.views.size() > 1) title = std::string(1, char('A' + (&v - &app.views[0]))) + ": " + title;
      if (app.stale(*v)) title += "  (stale: run again)";
      if (v->run) title += "  (running)";
      const ImVec2 at{float(v->viewport.x) / scale + 6, float(v->viewport.y) / scale + 4};
      ImGui::GetBackgroundDrawList()->AddRectFilled({at.x - 3, at.y - 1},
                                                    {at.x + ImGui::CalcTextSize(title.c_str()).x + 3, at.y + ImGui::GetFontSize() + 1},
                                                    IM_COL32(255, 255, 255, 200), 3.f);
      ImGui::GetBackgroundDrawList()->AddText(at, IM_COL32(20, 20, 20, 255), title.c_str());
    }
  }
}

namespace {

// The heat map under the view: g of the frame on screen, the clearance, or none.
void update_heat(App& app, View& v, const GridMap& map) {
  if (app.ui.show_g_heat && v.cursor && v.shown_width == map.width() && v.shown_height == map.height()) {
    // g of the frame on screen: rebuilt when the trace or the frame changes.
    const View::HeatKey key{map.uid(), map.version(), 0, app.ui.clearance_metric,
                            v.trace_generation + 1, v.cursor->frame(), true};
    if (!(key == v.heat_key)) {
      v.renderer->set_heat(g_image(v.cursor->state(), map.width(), map.height()));
      v.heat_key = key;
    }
    v.renderer->heat_opacity = 0.7f;
  } else if (app.ui.show_clearance) {
    const View::HeatKey key{map.uid(), map.version(), app.overlay_capability(),
                            app.ui.clearance_metric, 0, 0, true};
    if (!(key == v.heat_key)) {
      const ClearanceGrid& grid = app.document.clearance_cache.get(map, key.cap, key.metric);
      v.renderer->set_heat(clearance_image(grid, map.width(), map.height()));
      v.heat_key = key;
    }
    v.renderer->heat_opacity = 0.6f;
  } else {
    v.renderer->heat_opacity = 0;
  }
}

void write_view_export(App& app, const FrameSize& fb) {
  if (app.ui.export_view_path.empty()) return;
  const Viewport& r = app.view().viewport;
  if (!write_region(app.ui.export_view_path, r.x, fb.height - r.y - r.height, r.width, r.height)) {
    app.document.load_error = "could not write " + app.ui.export_view_path;
  } else {
    app.document.status_message = "exported " + app.ui.export_view_path;
    app.document.load_error.clear();
  }
  app.ui.export_view_path.clear();
}

}  // namespace

void render_views(App& app, const FrameSize& fb) {
  glViewport(0, 0, fb.width, fb.height);
  glClearColor(0.1f, 0.1f, 0.11f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const GridMap& map = app.scene().map;
  for (auto& vp : app.views) {
    View& v = *vp;
    if (!v.renderer) v.renderer = std::make_unique<MapRenderer>();
    const View::TerrainKey tkey{map.uid(), map.version()};
    if (!(tkey == v.terrain_key)) {
      v.renderer->set_terrain(terrain_image(map));
      v.terrain_key = tkey;
    }
    update_heat(app, v, map);
    v.renderer->draw(v.camera, v.viewport, fb.height, v.draw_list);
  }
  write_view_export(app, fb);
  glViewport(0, 0, fb.width, fb.height);
}

bool write_region(const std::string& path, int x0, int y0, int width, int height) {
  std::vector<unsigned char> pixels(std::size_t(width) * std::size_t(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(x0, y0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // GL's rows go bottom-up; a PNG's top-down. The picture is opaque whatever alpha GL left.
  std::vector<unsigned char> flipped(pixels.size());
  const std::size_t row = std::size_t(width) * 4;
  for (int y = 0; y < height; ++y)
    std::copy_n(&pixels[std::size_t(height - 1 - y) * row], row, &flipped[std::size_t(y) * row]);
  for (std::size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
  // Encoded in memory, then written like every other save (a temporary file renamed into
  // place), so a crash or a full disk never leaves half a PNG where an old one was.
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    if (size > 0) static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, flipped.data(), int(row))) return false;
  try {
    write_file_atomic(path, png);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

void write_window_shot(App& app, const FrameSize& fb) {
  std::string& path = app.ui.window_shot_path;
  if (path.empty()) return;
  if (write_region(path, 0, 0, fb.width, fb.height)) app.document.status_message = "saved " + path;
  else app.document.load_error = "could not write " + path;
  path.clear();
}

}  // namespace pl::app
