// pathlab: the desktop app's program (app_main, which main.cpp calls). GLFW window with a GL 3.3
// core context loaded by glad, Dear ImGui's canonical main loop (poll or wait for events, new
// frame, panels, render, swap).
//
//   pathlab [--scene FILE] [--planner P] [--compare P2]... [--frame N|end]
//           [--screenshot OUT.png] [--exit] [--size WxH] [--clearance] [--bench-frames N]
//
// --compare P2 adds a view with planner P2 beside the first (repeatable); every view runs.
//
// --bench-frames N renders N frames without vsync, each timed from the start of the frame to
// after glFinish (CPU and GPU work), prints "frames N mean_ms X p95_ms Y" and exits.
// --zoom Z (or --bench-zoom Z) zooms the views by Z from the fitted view (about the centre);
// --bench-scrub jumps to a different, pseudo-random frame of the timeline every frame (the
// worst case for the search texture, rebuilt on every frame change).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb_image_write.h>

#include "app/app.hpp"
#include "editor/config_dir.hpp"
#include "viz/image.hpp"

namespace {

struct Options {
  std::string scene = PATHLAB_SOURCE_DIR "/assets/sample.json";
  std::string planner;
  std::vector<std::string> compare;
  std::vector<std::string> sets;  // NAME=VALUE for view A's planner
  std::string preset;
  bool figures = false;
  std::string hide;  // planner shape roles to hide, comma separated ("accepted,rejected")  // --figures: the compare table lists every planner figure
  std::string frame;  // "", a number or "end"
  std::string screenshot;
  std::string layout;  // with --screenshot: where each view and its camera were (for tests)
  bool exit_after = false;
  bool clearance = false;
  int bench_frames = 0;
  double bench_zoom = 0;
  bool bench_scrub = false;
  bool g_heat = false;
  std::optional<pl::Vec2> center;  // map point to centre the views on
  int width = 1280, height = 800;
};

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr,
               "pathlab: %s\nusage: pathlab [--scene FILE] [--planner P] [--set K=V]... [--compare P2[:K=V,...]]... "
               "[--preset ID] [--hide ROLE,...] [--frame N|end] "
               "[--screenshot OUT.png] [--layout OUT.json] [--exit] [--size WxH] [--clearance] "
               "[--zoom Z] [--center X,Y] [--g-heat] [--bench-frames N [--bench-scrub]]\n",
               problem);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--scene") o.scene = value();
    else if (a == "--planner") o.planner = value();
    else if (a == "--compare") o.compare.push_back(value());
    else if (a == "--set") o.sets.push_back(value());
    else if (a == "--preset") o.preset = value();
    else if (a == "--figures") o.figures = true;
    else if (a == "--hide") o.hide = value();
    else if (a == "--frame") o.frame = value();
    else if (a == "--screenshot") o.screenshot = value();
    else if (a == "--layout") o.layout = value();
    else if (a == "--exit") o.exit_after = true;
    else if (a == "--clearance") o.clearance = true;
    else if (a == "--bench-scrub") o.bench_scrub = true;
    else if (a == "--g-heat") o.g_heat = true;
    else if (a == "--center") {
      const std::string v = value();
      double cx = 0, cy = 0;
      if (std::sscanf(v.c_str(), "%lf,%lf", &cx, &cy) != 2) usage("--center wants X,Y in map units");
      o.center = pl::Vec2{cx, cy};
    }
    else if (a == "--zoom" || a == "--bench-zoom") {
      const std::string v = value();
      if (std::sscanf(v.c_str(), "%lf", &o.bench_zoom) != 1 || !(o.bench_zoom > 0))
        usage("--zoom wants a positive factor");
    }
    else if (a == "--bench-frames") {
      const std::string v = value();
      if (std::sscanf(v.c_str(), "%d", &o.bench_frames) != 1 || o.bench_frames < 1)
        usage("--bench-frames wants a positive number");
    }
    else if (a == "--size") {
      const std::string v = value();
      if (std::sscanf(v.c_str(), "%dx%d", &o.width, &o.height) != 2 || o.width < 64 ||
          o.height < 64)
        usage("--size wants WxH, at least 64x64");
    } else if (a == "--help" || a == "-h") usage("help");
    else usage(("unknown argument " + a).c_str());
  }
  if (!o.frame.empty() && o.frame != "end" &&
      o.frame.find_first_not_of("0123456789") != std::string::npos)
    usage("--frame wants a number or 'end'");
  return o;
}

std::string config_file(const char* name) {
  return (std::filesystem::path(pl::editor::config_dir()) / name).string();
}

// Writes a rectangle of the back buffer (GL coordinates: x, y from the bottom-left) as a PNG.
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
  return stbi_write_png(path.c_str(), width, height, 4, flipped.data(), int(row)) != 0;
}

bool write_screenshot(const std::string& path, int width, int height) {
  return write_region(path, 0, 0, width, height);
}

// The views' rectangles (framebuffer pixels, y down) and cameras, so screenshot tests map
// cells to pixels with exactly the app's numbers instead of re-deriving its layout.
bool write_layout(const std::string& path, const pl::app::App& app, int fb_w, int fb_h) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  std::fprintf(f, "{\"framebuffer\": [%d, %d], \"views\": [", fb_w, fb_h);
  for (std::size_t i = 0; i < app.views.size(); ++i) {
    const pl::app::View& v = *app.views[i];
    std::fprintf(f, "%s{\"viewport\": [%d, %d, %d, %d], \"zoom\": %.17g, \"offset\": [%.17g, %.17g], "
                 "\"planner\": \"%s\", \"frame\": %zu}",
                 i ? ", " : "", v.viewport.x, v.viewport.y, v.viewport.width, v.viewport.height,
                 v.camera.zoom(), v.camera.offset().x, v.camera.offset().y, v.planner.c_str(),
                 v.cursor ? v.cursor->frame() : std::size_t(0));
  }
  std::fprintf(f, "]}\n");
  return std::fclose(f) == 0;
}

void glfw_error(int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); }

pl::app::App* app_of(GLFWwindow* w) { return static_cast<pl::app::App*>(glfwGetWindowUserPointer(w)); }

// Files dropped onto the window open next frame (after the unsaved-changes question).
void on_drop(GLFWwindow* w, int count, const char** paths) {
  if (pl::app::App* app = app_of(w); app && count > 0) app->ui.dropped.emplace_back(paths[0]);
}

// F12: the whole window as a PNG in the current directory. Caught in the key callback (then
// passed on to ImGui's) because ImGui 1.86 sees only key state per frame, and a press and
// release that arrive between two frames would be missed.
void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
  pl::app::App* app = app_of(w);
  if (app && key == GLFW_KEY_F12 && action == GLFW_PRESS) {
    char name[64];
    const std::time_t t = std::time(nullptr);
    std::strftime(name, sizeof name, "pathlab-%Y%m%d-%H%M%S.png", std::localtime(&t));
    app->ui.window_shot_path = name;
  }
}

// Closing the window with unsaved changes asks first.
void on_close(GLFWwindow* w) {
  pl::app::App* app = app_of(w);
  if (!app || app->ui.quit_confirmed || app->ui.ignore_input || !app->document.doc.dirty()) return;
  glfwSetWindowShouldClose(w, GLFW_FALSE);
  app->ui.pending = pl::app::PendingAction::Quit;
}

}  // namespace

int pl::app::app_main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  const bool bench = opt.bench_frames > 0;
  // Benchmarks run like automated screenshots: no saved layout, no pointer, the run awaited.
  const bool headless = (!opt.screenshot.empty() && opt.exit_after) || bench;

  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) return 1;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(opt.width, opt.height, "pathlab", nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(headless ? 0 : 1);
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::fprintf(stderr, "pathlab: could not load OpenGL 3.3 core\n");
    return 1;
  }

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  // Window layout persists in the user's config dir; automated runs neither read nor write it.
  static std::string ini = headless ? std::string() : config_file("imgui.ini");
  io.IniFilename = headless ? nullptr : ini.c_str();
  ImGui::StyleColorsDark();
  // Opaque popups and windows: dialogs over a busy map must stay readable.
  ImGui::GetStyle().Colors[ImGuiCol_PopupBg].w = 1.0f;
  ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 1.0f;
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  int status = 0;
  {
    pl::app::App app;
    app.ui.ignore_input = headless;
    // Saved settings first, so the command line wins over them.
    if (!headless) pl::app::load_settings(app, config_file("settings.json"));
    if (opt.clearance || opt.g_heat) {
      app.ui.show_clearance = opt.clearance && !opt.g_heat;
      app.ui.show_g_heat = opt.g_heat;
    }
    app.ui.compare_figures = opt.figures;
    for (std::size_t pos = 0; pos < opt.hide.size();) {
      std::size_t end = opt.hide.find(',', pos);
      if (end == std::string::npos) end = opt.hide.size();
      const std::string name = opt.hide.substr(pos, end - pos);
      bool known = false;
      for (std::size_t r = 0; r < std::size_t(pl::Role::Count); ++r)
        if (name == pl::role_name(pl::Role(r))) app.ui.hidden_roles.set(r), known = true;
      if (!known) usage(("--hide: unknown role " + name).c_str());
      pos = end + 1;
    }
    app.views.run_on_open = !headless;
    try {
      app.views[0]->renderer = std::make_unique<pl::app::MapRenderer>();  // fails early if GL does
    } catch (const std::exception& e) {
      std::fprintf(stderr, "pathlab: %s\n", e.what());
      return 1;
    }
    if (!app.load(opt.scene)) {
      std::fprintf(stderr, "pathlab: %s\n", app.document.load_error.c_str());
      if (headless) return 1;
    }
    // "NAME[:K=V,K=V]" -> planner and parameters.
    auto split_setup = [](const std::string& text) {
      std::pair<std::string, std::map<std::string, std::string>> out;
      const std::size_t colon = text.find(':');
      out.first = text.substr(0, colon);
      if (colon != std::string::npos) {
        std::string rest = text.substr(colon + 1);
        std::size_t pos = 0;
        while (pos <= rest.size()) {
          std::size_t end = rest.find(',', pos);
          if (end == std::string::npos) end = rest.size();
          const std::string kv = rest.substr(pos, end - pos);
          const std::size_t eq = kv.find('=');
          if (eq == std::string::npos) usage(("--compare: '" + kv + "' is not K=V").c_str());
          out.second[kv.substr(0, eq)] = kv.substr(eq + 1);
          pos = end + 1;
        }
      }
      return out;
    };
    // Checks a set-up against the registry's descriptions (the same messages as pathlab-cli).
    auto check_setup = [](const std::string& name, const std::map<std::string, std::string>& params) {
      try {
        pl::app::registry().create(name, params);
      } catch (const std::exception& e) {
        usage(e.what());
      }
    };
    std::map<std::string, std::string> a_params;
    for (const std::string& kv : opt.sets) {
      const std::size_t eq = kv.find('=');
      if (eq == std::string::npos) usage(("--set: '" + kv + "' is not K=V").c_str());
      a_params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    for (const std::string& c : opt.compare) {
      const auto [name, params] = split_setup(c);
      check_setup(name, params);
    }
    if (!opt.planner.empty() && !pl::app::registry().find(opt.planner))
      usage(("unknown planner " + opt.planner).c_str());
    // A set-up on the command line replaces the scene's saved views: view A runs --planner (or
    // the scene's first set-up), one more view per --compare, all for the first view's agent.
    if (!opt.planner.empty() || !opt.compare.empty() || !opt.sets.empty()) {
      while (app.views.size() > 1) app.views.list.pop_back();
      app.views.active = 0;
      if (!opt.planner.empty()) app.view().select_planner(opt.planner);
      for (const auto& [k, val] : a_params) app.view().params[k] = val;
      check_setup(app.view().planner, app.view().params);
      for (const std::string& c : opt.compare) {
        const auto [name, params] = split_setup(c);
        pl::app::View& v = app.add_view(name);
        for (const auto& [k, val] : params) v.params[k] = val;
      }
    }
    app.views.active = 0;
    if (!opt.preset.empty() && !pl::app::apply_preset(app, opt.preset)) {
      std::string known;
      for (const std::string& id : pl::app::preset_ids()) known += " " + id;
      usage(("unknown preset " + opt.preset + " (known:" + known + ")").c_str());
    }
    auto seek_requested = [&] {
      if (!opt.frame.empty() && opt.frame != "end") app.seek_all(std::size_t(std::stoull(opt.frame)));
    };
    // Interactive starts show the scene's views already run; automated ones run only when asked.
    if (!opt.planner.empty() || !opt.frame.empty() || !opt.compare.empty() || !opt.preset.empty() ||
        !opt.sets.empty() || !headless) {
      app.start_all_runs();
      if (headless) {
        for (auto& v : app.views) v->run->join();
        app.poll_runs();
        seek_requested();
      }
    }
    glfwSetWindowUserPointer(window, &app);
    glfwSetDropCallback(window, on_drop);
    glfwSetWindowCloseCallback(window, on_close);
    glfwSetKeyCallback(window, on_key);

    int frames_left = 3;  // ImGui lays windows out over the first frames
    std::vector<double> frame_ms;
    if (bench) frame_ms.reserve(std::size_t(opt.bench_frames));
    while (!glfwWindowShouldClose(window)) {
      const auto frame_start = std::chrono::steady_clock::now();
      if (headless || app.busy()) glfwPollEvents();
      else glfwWaitEventsTimeout(0.25);
      if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
        glfwWaitEvents();  // sleep while minimized
        continue;
      }
      if (app.poll_runs() && !app.any_run()) seek_requested();
      if (app.ui.quit_confirmed) glfwSetWindowShouldClose(window, GLFW_TRUE);
      if (app.views.size() > 1) app.update_reference();
      if (app.views.auto_rerun)
        for (auto& v : app.views)
          if (!v->run && app.stale(*v)) app.start_run(*v);

      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();

      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window, &fb_w, &fb_h);
      const float scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.f;

      pl::app::main_menu(app);
      pl::app::shortcuts(app);
      pl::app::panel_side(app);
      const int side = int(app.ui.side_width * scale);
      const int top = int(app.ui.menu_height * scale);
      const int status_h = int(pl::app::kStatusHeight * scale);
      const int compare_h = int(pl::app::compare_height(app) * scale);
      app.ui.map_area = {side, top, std::max(1, fb_w - side), std::max(1, fb_h - status_h - top - compare_h)};
      pl::app::panel_compare(app);
      pl::app::panel_status(app, 0, io.DisplaySize.y - pl::app::kStatusHeight, io.DisplaySize.x,
                            pl::app::kStatusHeight);
      pl::app::map_view_input(app);
      static bool zoomed = false;  // once, after the first fit
      if ((opt.bench_zoom > 0 || opt.center) && !zoomed) {
        zoomed = true;
        pl::app::View& v0 = *app.views[0];
        if (opt.bench_zoom > 0)
          v0.camera.zoom_at({v0.viewport.width * 0.5, v0.viewport.height * 0.5}, opt.bench_zoom);
        if (opt.center) v0.camera.center_on(*opt.center);
        app.sync_cameras(0);
      }
      if (bench && opt.bench_scrub && app.view().cursor) {
        // A fixed-seed LCG: the same frames on every run.
        static std::uint64_t lcg = 12345;
        lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
        app.seek_all(std::size_t((lcg >> 33) % (pl::app::timeline_last(app) + 1)));
      }
      pl::app::dialogs(app);
      pl::app::file_dialogs(app);
      app.tick(io.DeltaTime);
      pl::app::map_view_build(app);
      // Labels go to ImGui's background list, which has the font: above the map, under panels.
      for (auto& v : app.views) {
        pl::app::MapRenderer::labels(v->camera, v->viewport, v->draw_list,
                                     ImGui::GetBackgroundDrawList(), scale);
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

      ImGui::Render();
      glViewport(0, 0, fb_w, fb_h);
      glClearColor(0.1f, 0.1f, 0.11f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      const pl::GridMap& map = app.scene().map;
      for (auto& vp : app.views) {
        pl::app::View& v = *vp;
        if (!v.renderer) v.renderer = std::make_unique<pl::app::MapRenderer>();
        const pl::app::View::TerrainKey tkey{map.uid(), map.version()};
        if (!(tkey == v.terrain_key)) {
          v.renderer->set_terrain(pl::terrain_image(map));
          v.terrain_key = tkey;
        }
        if (app.ui.show_g_heat && v.cursor && v.shown_width == map.width() && v.shown_height == map.height()) {
          // g of the frame on screen: rebuilt when the trace or the frame changes.
          const pl::app::View::HeatKey key{map.uid(), map.version(), 0, app.ui.clearance_metric,
                                           v.trace_generation + 1, v.cursor->frame(), true};
          if (!(key == v.heat_key)) {
            v.renderer->set_heat(pl::g_image(v.cursor->state(), map.width(), map.height()));
            v.heat_key = key;
          }
          v.renderer->heat_opacity = 0.7f;
        } else if (app.ui.show_clearance) {
          const pl::app::View::HeatKey key{map.uid(), map.version(), app.overlay_capability(),
                                           app.ui.clearance_metric, 0, 0, true};
          if (!(key == v.heat_key)) {
            const pl::ClearanceGrid& grid = app.document.clearance_cache.get(map, key.cap, key.metric);
            v.renderer->set_heat(pl::clearance_image(grid, map.width(), map.height()));
            v.heat_key = key;
          }
          v.renderer->heat_opacity = 0.6f;
        } else {
          v.renderer->heat_opacity = 0;
        }
        v.renderer->draw(v.camera, v.viewport, fb_h, v.draw_list);
      }
      if (!app.ui.export_view_path.empty()) {
        const pl::app::Viewport& r = app.view().viewport;
        if (!write_region(app.ui.export_view_path, r.x, fb_h - r.y - r.height, r.width, r.height)) {
          app.document.load_error = "could not write " + app.ui.export_view_path;
        } else {
          app.document.status_message = "exported " + app.ui.export_view_path;
          app.document.load_error.clear();
        }
        app.ui.export_view_path.clear();
      }
      glViewport(0, 0, fb_w, fb_h);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

      if (!opt.screenshot.empty() && frames_left > 0 && --frames_left == 0 && !app.any_run()) {
        if (!write_screenshot(opt.screenshot, fb_w, fb_h)) {
          std::fprintf(stderr, "pathlab: could not write %s\n", opt.screenshot.c_str());
          status = 1;
        }
        if (!opt.layout.empty() && !write_layout(opt.layout, app, fb_w, fb_h)) {
          std::fprintf(stderr, "pathlab: could not write %s\n", opt.layout.c_str());
          status = 1;
        }
        if (opt.exit_after) glfwSetWindowShouldClose(window, GLFW_TRUE);
      } else if (frames_left == 0 && app.any_run()) {
        frames_left = 1;
      }
      if (!app.ui.window_shot_path.empty()) {
        if (write_screenshot(app.ui.window_shot_path, fb_w, fb_h)) app.document.status_message = "saved " + app.ui.window_shot_path;
        else app.document.load_error = "could not write " + app.ui.window_shot_path;
        app.ui.window_shot_path.clear();
      }
      glfwSwapBuffers(window);
      if (bench) {
        glFinish();
        const auto frame_end = std::chrono::steady_clock::now();
        frame_ms.push_back(std::chrono::duration<double, std::milli>(frame_end - frame_start).count());
        if (int(frame_ms.size()) >= opt.bench_frames) glfwSetWindowShouldClose(window, GLFW_TRUE);
      }
    }
    if (!headless) pl::app::save_settings(app, config_file("settings.json"));
    if (bench && !frame_ms.empty()) {
      double sum = 0;
      for (double ms : frame_ms) sum += ms;
      std::vector<double> sorted = frame_ms;
      std::sort(sorted.begin(), sorted.end());
      const std::size_t i95 = std::min(sorted.size() - 1, std::size_t(double(sorted.size()) * 0.95));
      std::printf("frames %zu mean_ms %.3f p95_ms %.3f\n", frame_ms.size(),
                  sum / double(frame_ms.size()), sorted[i95]);
      std::fflush(stdout);
    }
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return status;
}
