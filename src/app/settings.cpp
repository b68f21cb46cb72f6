// The app's display and timeline settings, kept between runs in config_dir()/settings.json
// (the window layout is ImGui's imgui.ini beside it). Written on a normal exit, read at start;
// a missing or unreadable file means defaults, never an error that stops the app.
#include <array>
#include <exception>
#include <utility>
#include <string>

#include <nlohmann/json.hpp>

#include "app/app.hpp"
#include "core/io.hpp"

namespace pl::app {

using nlohmann::json;

namespace {

template <class T>
void read(const json& j, const char* key, T& out) {
  if (auto it = j.find(key); it != j.end()) {
    try {
      out = it->get<T>();
    } catch (const std::exception&) {
      // A value of the wrong type keeps the default: the file may come from another version.
    }
  }
}

// The on/off settings, by their names in the file: one list serves reading and writing.
template <class AppT>
auto flags(AppT& app) {
  return std::array<std::pair<const char*, decltype(&app.ui.grid_lines)>, 14>{{
      {"grid_lines", &app.ui.grid_lines},
      {"parent_arrows", &app.ui.show_parent_arrows},
      {"only_usable_shapes", &app.ui.only_usable_shapes},
      {"clearance", &app.ui.show_clearance},
      {"g_heat", &app.ui.show_g_heat},
      {"search_numbers", &app.ui.show_search_numbers},
      {"lock_cameras", &app.views.lock_cameras},
      {"lock_timelines", &app.views.lock_timelines},
      {"difference", &app.ui.show_difference},
      {"auto_rerun", &app.views.auto_rerun},
      {"compare_figures", &app.ui.compare_figures},
      {"map_legend", &app.ui.map_legend},
      {"failed_tests_history", &app.ui.rejected_history},
      {"passed_tests_history", &app.ui.passed_history},
  }};
}

}  // namespace

void load_settings(App& app, const std::string& path) {
  json j;
  try {
    j = json::parse(read_file(path, std::size_t(1) << 20));
  } catch (const std::exception&) {
    return;  // first start, or a file we cannot use: defaults
  }
  if (!j.is_object()) return;
  for (const auto& [key, field] : flags(app)) read(j, key, *field);
  read(j, "fps", app.views.fps);
  std::string metric;
  read(j, "clearance_metric", metric);
  if (metric == "brushfire") app.ui.clearance_metric = ClearanceMetric::Brushfire;
  read(j, "brush_size", app.tool_state.brush_size);
  if (app.tool_state.brush_size < 1 || app.tool_state.brush_size > 32) app.tool_state.brush_size = 1;
  if (!(app.views.fps >= 1 && app.views.fps <= 5000)) app.views.fps = 30;
  if (auto it = j.find("layers"); it != j.end() && it->is_object())
    for (std::size_t l = 0; l < kLayerCount; ++l) read(*it, layer_name(Layer(l)), app.ui.layers[l]);
}

bool save_settings(const App& app, const std::string& path) {
  json j;
  for (const auto& [key, field] : flags(app)) j[key] = *field;
  j["fps"] = app.views.fps;
  j["clearance_metric"] = app.ui.clearance_metric == ClearanceMetric::Brushfire ? "brushfire" : "true";
  j["brush_size"] = app.tool_state.brush_size;
  json layers = json::object();
  for (std::size_t l = 0; l < kLayerCount; ++l) layers[layer_name(Layer(l))] = bool(app.ui.layers[l]);
  j["layers"] = layers;
  try {
    write_file_atomic(path, j.dump(1) + "\n");
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace pl::app
