#include "app/frame.hpp"

#include <algorithm>
#include <cmath>
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
#include "viz/overlays.hpp"
#include "viz/style.hpp"

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

namespace {

// A small legend along the bottom of a view: what its draw list shows this frame (search
// status, planner shapes not hidden, path, endpoints, difference hatches), not the grid or the
// agents; entries flow left to right in rows. Under the map when there is room, else over its
// lower edge. The Display tab has the full legend with its toggles.
void map_legend(App& app, const View& v, float scale) {
  const Style& style = Style::standard();
  std::vector<LegendEntry> entries;
  for (LegendEntry& e : build_legend(v.draw_list, style, v.trace.get())) {
    if (e.key.kind == StyleKey::Kind::Item) {
      const StyleItem item = StyleItem(e.key.index);
      if (item != StyleItem::OnlyA && item != StyleItem::OnlyB && item != StyleItem::ThisFrame) continue;
    } else if (app.ui.hidden_roles.test(std::size_t(e.key.index))) {
      continue;
    }
    entries.push_back(std::move(e));
  }
  if (entries.empty()) return;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const float line = ImGui::GetTextLineHeight() + 2, sw = line - 5, pad = 4, gap = 12;
  const float left = float(v.viewport.x) / scale + 6;
  const float max_w = std::max(120.f, float(v.viewport.width) / scale - 12);
  // Rows: each entry is swatch + label; wrap when the next would pass max_w.
  std::vector<ImVec2> at(entries.size());
  float x = pad, y = pad, width = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const float w = sw + 5 + ImGui::CalcTextSize(entries[i].label.c_str()).x;
    if (x > pad && x + w + pad > max_w) x = pad, y += line;
    at[i] = {x, y};
    x += w + gap;
    width = std::max(width, x - gap + pad);
  }
  const float height = y + line + pad;
  const float view_bottom = float(v.viewport.y + v.viewport.height) / scale;
  // A view too small for its legend shows none rather than hide its map under it.
  if (height > (float(v.viewport.height) / scale) * 0.45f) return;
  const float map_bottom =
      float(v.viewport.y + v.camera.map_to_screen({0.0, double(app.scene().map.height())}).y) / scale;
  // Under the map if it fits there, else at the view's bottom edge.
  const float top = std::clamp(map_bottom + 4, float(v.viewport.y) / scale, view_bottom - height - 4);
  dl->AddRectFilled({left, top}, {left + width, top + height}, IM_COL32(255, 255, 255, 200), 3.f);
  app.ui.drawn_texts.push_back({"legend", left, top, width, height, float(v.viewport.x) / scale,
                                float(v.viewport.y) / scale, float(v.viewport.width) / scale,
                                float(v.viewport.height) / scale});
  const Rgba closed = style.colour(Role::Closed);
  auto col = [](Rgba c) { return IM_COL32(c.r, c.g, c.b, c.a); };
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const LegendEntry& e = entries[i];
    const ImVec2 a{left + at[i].x, top + at[i].y + 2}, b{a.x + sw, a.y + sw};
    const bool only_a = e.key.kind == StyleKey::Kind::Item && StyleItem(e.key.index) == StyleItem::OnlyA;
    const bool only_b = e.key.kind == StyleKey::Kind::Item && StyleItem(e.key.index) == StyleItem::OnlyB;
    if (only_a || only_b) {
      // The hatch as on the map: over the closed colour.
      dl->AddRectFilled(a, b, col(closed));
      if (only_a) dl->AddLine({a.x, b.y}, {b.x, a.y}, col(e.colour), 2.f);
      else dl->AddLine(a, b, col(e.colour), 2.f);
    } else {
      dl->AddRectFilled(a, b, col(e.colour));
    }
    dl->AddRect(a, b, IM_COL32(0, 0, 0, 90));
    dl->AddText({b.x + 5, top + at[i].y}, IM_COL32(20, 20, 20, 255), e.label.c_str());
  }
}

}  // namespace

// `text` cut with "..." to `width` pixels.
std::string elided(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  std::size_t n = text.size();
  while (n > 0 && ImGui::CalcTextSize((text.substr(0, n) + "...").c_str()).x > width) --n;
  return text.substr(0, n) + "...";
}

namespace {
// The view's renderer, made when first needed (a view added to a comparison has none yet).
MapRenderer& renderer(View& v) {
  if (!v.renderer) v.renderer = std::make_unique<MapRenderer>();
  return *v.renderer;
}
}  // namespace

void view_titles(App& app, float scale) {
  app.ui.drawn_texts.clear();
  const std::vector<std::string> names = view_names(app);
  // Labels go to ImGui's background list or each view's label layer (MapRenderer::labels):
  // above the map, under the panels.
  for (auto& v : app.views) {
    renderer(*v).labels(v->camera, v->viewport, v->draw_list, ImGui::GetBackgroundDrawList(),
                        scale);
    // Each view's name (by what sets it apart) in its corner; under it, what state its run is
    // in (stale, running, stopped at a breakpoint). Each line cut to the view's width.
    if (app.views.size() > 1 || v->has_run) {
      const std::size_t i = std::size_t(&v - &app.views[0]);
      std::vector<std::string> lines{names[i]};
      if (app.views.size() > 1) lines[0] = std::string(1, char('A' + i)) + ": " + lines[0];
      std::string state;
      if (app.stale(*v)) state += "stale: run again";
      if (v->run) state += std::string(state.empty() ? "" : ", ") + "running";
      if (const Views::Stop* stop = app.stop_shown(*v)) state += std::string(state.empty() ? "" : ", ") + stop->text;
      if (!state.empty()) lines.push_back(state);
      const float vx = float(v->viewport.x) / scale, vy = float(v->viewport.y) / scale;
      const float vw = float(v->viewport.width) / scale, vh = float(v->viewport.height) / scale;
      const float max_w = std::max(10.f, vw - 12);
      float y = vy + 4;
      for (std::string& line : lines) {
        line = elided(line, max_w - 6);
        const ImVec2 at{vx + 6, y};
        const float w = ImGui::CalcTextSize(line.c_str()).x;
        ImGui::GetBackgroundDrawList()->AddRectFilled({at.x - 3, at.y - 1}, {at.x + w + 3, at.y + ImGui::GetFontSize() + 1},
                                                      IM_COL32(255, 255, 255, 200), 3.f);
        ImGui::GetBackgroundDrawList()->AddText(at, IM_COL32(20, 20, 20, 255), line.c_str());
        app.ui.drawn_texts.push_back({"title " + line, at.x - 3, at.y - 1, w + 6, ImGui::GetFontSize() + 2, vx, vy, vw, vh});
        y += ImGui::GetFontSize() + 3;
      }
    }
    if (app.ui.map_legend) map_legend(app, *v, scale);
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

// The window's background: the panels begin_opaque_panel opened this frame, as ImGui would have
// drawn them (the window colour, opaque), and the clear colour of the window elsewhere, around
// the views (which paint all of their own rectangles). A clear inside a scissor costs a pass
// over its rectangle under a software rasteriser (Mesa draws it as a quad), a whole-window
// clear almost nothing: so the whole window is cleared in the colour of the largest panel (the
// side column), the panels of that colour are not cleared again (unless an earlier panel
// cleared over them), and only the other panels and the uncovered rest get scissored clears.
void clear_background(App& app, const FrameSize& fb) {
  struct Rect {
    int x0, y0, x1, y1;  // framebuffer pixels, y down
    float r, g, b;
    bool overlaps(const Rect& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  };
  std::vector<Rect> panels;
  for (const UiSettings::PanelRect& r : app.ui.opaque_panels) {
    // The pixels whose centres the window's rectangle covers, as ImGui's filled quad covers them.
    const int x0 = std::max(0, int(std::lround(r.x * fb.scale)));
    const int y0 = std::max(0, int(std::lround(r.y * fb.scale)));
    const int x1 = std::min(fb.width, int(std::lround((r.x + r.w) * fb.scale)));
    const int y1 = std::min(fb.height, int(std::lround((r.y + r.h) * fb.scale)));
    if (x1 > x0 && y1 > y0) panels.push_back({x0, y0, x1, y1, r.r, r.g, r.b});
  }
  app.ui.opaque_panels.clear();
  constexpr float kWindow[3] = {0.1f, 0.1f, 0.11f};  // around the views
  const Rect* largest = nullptr;
  auto area = [](const Rect& r) { return (r.x1 - r.x0) * (r.y1 - r.y0); };
  for (const Rect& p : panels)
    if (!largest || area(p) > area(*largest)) largest = &p;
  const float base[3] = {largest ? largest->r : kWindow[0], largest ? largest->g : kWindow[1],
                         largest ? largest->b : kWindow[2]};
  glViewport(0, 0, fb.width, fb.height);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(base[0], base[1], base[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  auto clear = [&](const Rect& r, float cr, float cg, float cb) {
    glClearColor(cr, cg, cb, 1.0f);
    glScissor(r.x0, fb.height - r.y1, r.x1 - r.x0, r.y1 - r.y0);
    glClear(GL_COLOR_BUFFER_BIT);
  };
  // The window's colour where neither a panel nor a view is: the cells of the grid all their
  // edges make that none covers (merged along each row).
  if (base[0] != kWindow[0] || base[1] != kWindow[1] || base[2] != kWindow[2]) {
    std::vector<Rect> covers = panels;
    for (const auto& v : app.views)
      covers.push_back({v->viewport.x, v->viewport.y, v->viewport.x + v->viewport.width,
                        v->viewport.y + v->viewport.height, 0, 0, 0});
    std::vector<int> xs{0, fb.width}, ys{0, fb.height};
    for (const Rect& c : covers) {
      xs.insert(xs.end(), {std::clamp(c.x0, 0, fb.width), std::clamp(c.x1, 0, fb.width)});
      ys.insert(ys.end(), {std::clamp(c.y0, 0, fb.height), std::clamp(c.y1, 0, fb.height)});
    }
    for (std::vector<int>* v : {&xs, &ys}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    for (std::size_t j = 0; j + 1 < ys.size(); ++j) {
      int run = -1;  // first x index of an uncovered run
      for (std::size_t i = 0; i + 1 <= xs.size(); ++i) {
        bool open = false;
        if (i + 1 < xs.size()) {
          const Rect cell{xs[i], ys[j], xs[i + 1], ys[j + 1], 0, 0, 0};
          open = std::none_of(covers.begin(), covers.end(),
                              [&](const Rect& c) { return c.overlaps(cell); });
        }
        if (open && run < 0) run = int(i);
        if (!open && run >= 0) {
          clear({xs[std::size_t(run)], ys[j], xs[i], ys[j + 1], 0, 0, 0}, kWindow[0], kWindow[1],
                kWindow[2]);
          run = -1;
        }
      }
    }
  }
  // The panels in their order (a later one over an earlier one), but those of the base colour
  // that no earlier cleared panel overlaps: the whole-window clear painted them.
  std::vector<const Rect*> cleared;
  for (const Rect& p : panels) {
    const bool base_colour = p.r == base[0] && p.g == base[1] && p.b == base[2];
    if (base_colour && std::none_of(cleared.begin(), cleared.end(),
                                    [&](const Rect* c) { return c->overlaps(p); }))
      continue;
    clear(p, p.r, p.g, p.b);
    cleared.push_back(&p);
  }
  glDisable(GL_SCISSOR_TEST);
}

}  // namespace

void render_views(App& app, const FrameSize& fb) {
  clear_background(app, fb);
  const GridMap& map = app.scene().map;
  for (auto& vp : app.views) {
    View& v = *vp;
    MapRenderer& r = renderer(v);
    const View::TerrainKey tkey{map.uid(), map.version()};
    if (!(tkey == v.terrain_key)) {
      r.set_terrain(terrain_image(map));
      v.terrain_key = tkey;
    }
    update_heat(app, v, map);
    // A view waiting for a jump (a scrub) keeps its picture too: it is kept on the third frame
    // with the same inputs, so only a jump that has already waited two frames pays the copy,
    // and the frames after it copy back instead of drawing until the jump lands.
    r.reuse_picture = !app.ui.redraw_views;
    r.draw(v.camera, v.viewport, fb.height, v.draw_list);
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
