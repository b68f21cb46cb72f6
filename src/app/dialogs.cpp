// The modal dialogs (unsaved changes; new map, resize, generate) and the cell context menu
// (breakpoints), shown each frame by dialogs() once a menu or the map view opened them.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include <imgui.h>

#include "app/app.hpp"
#include "core/error.hpp"

namespace pl::app {
namespace {

// A width x height dialog that applies `apply` (new map, resize) as one undoable step.
void size_dialog(App& app, const char* title, const char* note, const char* button,
                 void (*apply)(editor::Document&, int, int)) {
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::InputInt("width", &app.new_width);
  ImGui::InputInt("height", &app.new_height);
  app.new_width = std::clamp(app.new_width, 1, kMaxMapSide);
  app.new_height = std::clamp(app.new_height, 1, kMaxMapSide);
  ImGui::TextDisabled("%s", note);
  if (ImGui::Button(button, {120, 0})) {
    apply(app.document.doc, app.new_width, app.new_height);
    for (auto& v : app.views) v->fit_pending = true;
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel", {120, 0})) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

// Map size and generator dialogs share these popups' state in App.
void map_dialogs(App& app) {
  size_dialog(app, "New map", "All ground; circles are removed, agents kept. Undo restores the old map.",
              "Create", editor::new_map);
  size_dialog(app, "Resize map", "Content stays anchored at the top-left; new cells are ground.",
              "Resize", editor::resize_map);
  if (ImGui::BeginPopupModal("Generate", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    GeneratorParams& g = app.generator;
    static const char* kinds[] = {"random obstacles", "soft obstacles (HAA* paper)", "rooms", "maze"};
    int kind = int(g.kind);
    ImGui::Combo("generator", &kind, kinds, 4);
    g.kind = GeneratorKind(kind);
    int seed = int(g.seed);
    if (ImGui::InputInt("seed", &seed)) g.seed = std::uint32_t(std::max(0, seed));
    switch (g.kind) {
      case GeneratorKind::RandomObstacles:
      case GeneratorKind::SoftObstacles: {
        float pct = float(g.probability * 100);
        if (ImGui::DragFloat("percent", &pct, 0.25f, 0, 100, "%.0f %%", ImGuiSliderFlags_AlwaysClamp)) g.probability = double(pct) / 100;
        if (g.kind == GeneratorKind::SoftObstacles) {
          const Palette& pal = app.scene().map.palette();
          const TerrainId def = default_soft_terrain(pal);
          const int t = g.terrain < 0 ? int(def) : g.terrain;
          if (ImGui::BeginCombo("terrain", pal[TerrainId(t)].name.c_str())) {
            for (int i = 0; i < pal.size(); ++i)
              if (!pal[TerrainId(i)].obstacle && TerrainId(i) != pal.default_ground() &&
                  ImGui::Selectable(pal[TerrainId(i)].name.c_str(), i == t))
                g.terrain = i;
            ImGui::EndCombo();
          }
          ImGui::TextDisabled("each ground cell becomes this terrain with the given probability");
        }
        break;
      }
      case GeneratorKind::Rooms:
        ImGui::DragInt("room size", &g.room_size, 0.1f, 1, 64, "%d", ImGuiSliderFlags_AlwaysClamp);
        ImGui::DragInt("door width", &g.door_width, 0.1f, 1, 16, "%d", ImGuiSliderFlags_AlwaysClamp);
        break;
      case GeneratorKind::Maze:
        ImGui::DragInt("corridor width", &g.corridor_width, 0.1f, 1, 16, "%d", ImGuiSliderFlags_AlwaysClamp);
        ImGui::DragInt("wall width", &g.wall_width, 0.1f, 1, 16, "%d", ImGuiSliderFlags_AlwaysClamp);
        break;
    }
    static std::string error;
    if (!error.empty()) ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", error.c_str());
    if (ImGui::Button("Generate", {120, 0})) {
      try {
        editor::apply_generator(app.document.doc, g);
        error.clear();
        ImGui::CloseCurrentPopup();
      } catch (const InputError& e) {
        error = e.what();  // nothing changed
      }
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", {120, 0})) error.clear(), ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
}

void unsaved_dialog(App& app) {
  editor::UnsavedPrompt& q = app.ui.unsaved;
  // Open only while the question is asked: while Save As is up, the file dialog is the modal.
  if (q.asking() && !ImGui::IsPopupOpen("Unsaved changes")) ImGui::OpenPopup("Unsaved changes");
  if (ImGui::BeginPopupModal("Unsaved changes", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    if (!q.asking()) {
      ImGui::CloseCurrentPopup();
      ImGui::EndPopup();
      return;
    }
    ImGui::Text("The scene has changes that are not saved%s%s.",
                app.document.scene_path.empty() ? "" : " to ", app.document.scene_path.c_str());
    const char* what = q.action() == PendingAction::Quit ? "quitting"
                       : q.action() == PendingAction::New ? "starting a new scene"
                                                          : "opening another file";
    ImGui::Text("Save them before %s?", what);
    if (!app.document.load_error.empty())
      ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", app.document.load_error.c_str());
    if (ImGui::Button(app.document.scene_path.empty() ? "Save as..." : "Save", {110, 0}))
      app.carry_out(q.save(app.document.scene_path));
    ImGui::SameLine();
    if (ImGui::Button("Don't save", {110, 0})) app.carry_out(q.discard());
    ImGui::SameLine();
    if (ImGui::Button("Cancel", {110, 0}) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) q.cancel();
    if (!q.asking()) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
}

// A file being read on a worker thread (App::load_in_background): a modal window with the file,
// the time so far and Cancel, so nothing can be edited that the opened file would replace.
void background_load_window(App& app) {
  if (!app.poll_background_load()) return;
  const char* title = "Opening";
  if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, {0.5f, 0.5f});
  if (ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::TextUnformatted(std::filesystem::path(app.background_load_path()).filename().string().c_str());
    const double s = app.background_load_seconds();
    ImGui::Text("reading and checking the file: %.1f s", s);
    // The readers report no fraction: a bar that sweeps says the UI is alive.
    const float sweep = float(std::fmod(s, 1.5) / 1.5);
    ImGui::ProgressBar(sweep, {280, 0}, "");
    if (ImGui::Button("Cancel", {120, 0}) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      app.cancel_background_load();
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

void cell_menu(App& app) {
  if (ImGui::BeginPopup("##cellmenu")) {
    if (app.ui.menu_cell) {
      const editor::Cell c = *app.ui.menu_cell;
      ImGui::TextDisabled("cell (%d, %d)", c.x, c.y);
      // A toggle for breakpoint b, labelled `label`.
      auto toggle = [&](const Views::Breakpoint& b, const char* label) {
        auto it = std::find(app.views.breakpoints.begin(), app.views.breakpoints.end(), b);
        const bool has = it != app.views.breakpoints.end();
        if (ImGui::MenuItem(label, nullptr, has)) {
          if (has) app.views.breakpoints.erase(it);
          else app.views.breakpoints.push_back(b);
        }
      };
      // Headings the active view's search gives this cell (a cells x headings space).
      int headings = 0;
      const NodeSpace* space = nullptr;
      if (app.view().cursor)
        for (const NodeSpace& sp : app.view().cursor->trace().spaces())
          if (sp.kind == NodeSpace::Kind::CellHeadings && c.x < sp.width && c.y < sp.height)
            headings = sp.headings, space = &sp;
      for (bool on_open : {true, false}) {
        const char* what = on_open ? "opened" : "expanded";
        toggle(Views::Breakpoint{c.x, c.y, -1, on_open},
               (std::string("Stop when ") + (headings ? "any heading is " : "") + what).c_str());
        if (headings && ImGui::BeginMenu(on_open ? "Stop when one heading is opened"
                                                 : "Stop when one heading is expanded")) {
          for (int i = 0; i < headings; ++i)
            toggle(Views::Breakpoint{c.x, c.y, i, on_open},
                   (std::to_string(i) + ": " + heading_name(space->heading_of_index(i))).c_str());
          ImGui::EndMenu();
        }
      }
      if (ImGui::MenuItem("Centre here")) {
        app.view().camera.center_on({c.x + 0.5, c.y + 0.5});
        app.sync_cameras(app.views.active);
      }
    }
    ImGui::EndPopup();
  }
}

}  // namespace

void dialogs(App& app) {
  background_load_window(app);
  map_dialogs(app);
  unsaved_dialog(app);
  cell_menu(app);
}

}  // namespace pl::app
