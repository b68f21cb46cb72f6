// The main menu bar, the modal dialogs (unsaved changes, new map, resize, generate), the cell
// context menu (breakpoints), the scenario list, the compare table and keyboard shortcuts.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/app.hpp"
#include "core/error.hpp"

namespace pl::app {
namespace {

// Compare presets: views a comparison needs, as data. A preset naming a planner the registry
// lacks is not offered.
struct Preset {
  const char* id;  // for --preset
  const char* label;
  std::vector<std::string> planners;
  std::vector<std::map<std::string, std::string>> params;
  bool figures = false;  // the comparison is about the planners' own figures: show them
};

const std::vector<Preset>& presets() {
  static const std::vector<Preset> p = {
      {"astar-dijkstra", "A* vs Dijkstra", {"astar", "dijkstra"}, {}},
      {"astar-8-4", "A*: 8- vs 4-connected", {"astar", "astar"}, {{{"connectivity", "8"}}, {{"connectivity", "4"}}}},
      {"astar-annotated", "A* vs Annotated A* (agent size)", {"astar", "annotated-astar"}, {}},
      {"clearance-brushfire", "Annotated A*: true clearance vs Brushfire",
       {"annotated-astar", "annotated-astar"},
       {{{"clearance", "true"}}, {{"clearance", "brushfire"}}}},
      {"hq-lq", "HAA*: HQ vs LQ", {"haa", "haa"}, {{{"quality", "hq"}}, {{"quality", "lq"}}}, true},
      {"haa-annotated", "HAA* vs Annotated A*", {"haa", "annotated-astar"}, {}},
      {"eager-lazy", "Circles: eager vs lazy", {"circles", "circles"}, {{{"mode", "eager"}}, {{"mode", "lazy"}}}, true},
  };
  return p;
}

bool preset_available(const Preset& p) {
  const Registry& reg = registry();
  for (std::size_t i = 0; i < p.planners.size(); ++i) {
    const PlannerInfo* info = reg.find(p.planners[i]);
    if (!info) return false;
    if (i < p.params.size())
      for (const auto& [k, v] : p.params[i]) {
        const ParamDesc* d = nullptr;
        for (const ParamDesc& q : info->params)
          if (q.name == k) d = &q;
        if (!d) return false;
        if (d->type == ParamDesc::Type::Enum &&
            std::find(d->choices.begin(), d->choices.end(), v) == d->choices.end())
          return false;
      }
  }
  return true;
}

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
        if (ImGui::SliderFloat("percent", &pct, 0, 100, "%.0f %%")) g.probability = double(pct) / 100;
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
        ImGui::SliderInt("room size", &g.room_size, 1, 64);
        ImGui::SliderInt("door width", &g.door_width, 1, 16);
        break;
      case GeneratorKind::Maze:
        ImGui::SliderInt("corridor width", &g.corridor_width, 1, 16);
        ImGui::SliderInt("wall width", &g.wall_width, 1, 16);
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
  if (app.ui.pending != PendingAction::None &&
      !ImGui::IsPopupOpen("Unsaved changes"))
    ImGui::OpenPopup("Unsaved changes");
  if (ImGui::BeginPopupModal("Unsaved changes", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("The scene has changes that are not saved%s%s.",
                app.document.scene_path.empty() ? "" : " to ", app.document.scene_path.c_str());
    const char* what = app.ui.pending == PendingAction::Quit ? "quitting"
                       : app.ui.pending == PendingAction::New ? "starting a new scene"
                                                           : "opening another file";
    ImGui::Text("Save them before %s?", what);
    auto proceed = [&] {
      const PendingAction a = app.ui.pending;
      app.ui.pending = PendingAction::None;
      if (a == PendingAction::Open) app.load(app.ui.pending_path);
      else if (a == PendingAction::New) app.new_scene();
      else if (a == PendingAction::Quit) app.ui.quit_confirmed = true;
      ImGui::CloseCurrentPopup();
    };
    if (ImGui::Button("Save", {110, 0})) {
      if (app.document.scene_path.empty()) {
        app.ui.file_request = FileRequest::Save;  // the pending action waits for Save As
        ImGui::CloseCurrentPopup();
      } else if (app.save(app.document.scene_path)) {
        proceed();
      }
    }
    ImGui::SameLine();
    if (ImGui::Button("Don't save", {110, 0})) proceed();
    ImGui::SameLine();
    if (ImGui::Button("Cancel", {110, 0}) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      app.ui.pending = PendingAction::None;
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

void scenario_window(App& app) {
  if (!app.document.scenario) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos({io.DisplaySize.x - 310, app.ui.menu_height + 10}, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize({300, 260}, ImGuiCond_FirstUseEver);
  bool open = true;
  if (ImGui::Begin("Scenario", &open)) {
    ImGui::TextWrapped("%s: %zu problems. Click one to make it the agent's start and goal.",
                       app.document.scenario_path.c_str(), app.document.scenario->problems.size());
    if (ImGui::BeginTable("##scen", 4, ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg)) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("#");
      ImGui::TableSetupColumn("start");
      ImGui::TableSetupColumn("goal");
      ImGui::TableSetupColumn("optimal");
      ImGui::TableHeadersRow();
      ImGuiListClipper clip;
      clip.Begin(int(app.document.scenario->problems.size()));
      while (clip.Step())
        for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
          const ScenProblem& p = app.document.scenario->problems[std::size_t(i)];
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          char label[32];
          std::snprintf(label, sizeof label, "%d##p", i);
          if (ImGui::Selectable(label, app.document.scenario_pick == i, ImGuiSelectableFlags_SpanAllColumns))
            app.pick_scenario_problem(i);
          ImGui::TableNextColumn();
          ImGui::Text("%d,%d", p.start_x, p.start_y);
          ImGui::TableNextColumn();
          ImGui::Text("%d,%d", p.goal_x, p.goal_y);
          ImGui::TableNextColumn();
          ImGui::Text("%.3f", p.optimal);
        }
      ImGui::EndTable();
    }
  }
  ImGui::End();
  if (!open) app.document.scenario.reset();
}

}  // namespace

bool apply_preset(App& app, const std::string& id) {
  for (const Preset& p : presets())
    if (id == p.id && preset_available(p)) {
      app.preset_compare(p.planners, p.params);
      app.ui.compare_figures |= p.figures;
      return true;
    }
  return false;
}

std::vector<std::string> preset_ids() {
  std::vector<std::string> ids;
  for (const Preset& p : presets())
    if (preset_available(p)) ids.push_back(p.id);
  return ids;
}

void main_menu(App& app) {
  if (!ImGui::BeginMainMenuBar()) return;
  app.ui.menu_height = ImGui::GetWindowSize().y;
  bool new_map = false, resize = false, generate = false;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("New scene")) app.request_new();
    if (ImGui::MenuItem("Open...", "Ctrl+O")) app.ui.file_request = FileRequest::Open;
    if (ImGui::BeginMenu("Open recent", !recent_paths().empty())) {
      std::string chosen;
      for (const std::string& p : recent_paths())
        if (ImGui::MenuItem(p.c_str())) chosen = p;
      ImGui::EndMenu();
      if (!chosen.empty()) open_recent(app, chosen);
    }
    if (ImGui::MenuItem("Save", "Ctrl+S")) {
      if (app.document.scene_path.empty()) app.ui.file_request = FileRequest::Save;
      else app.save(app.document.scene_path);
    }
    if (ImGui::MenuItem("Save as...", "Ctrl+Shift+S")) app.ui.file_request = FileRequest::Save;
    ImGui::Separator();
    if (ImGui::MenuItem("Import PNG...")) app.ui.file_request = FileRequest::ImportPng;
    if (ImGui::MenuItem("Export view as PNG...")) app.ui.file_request = FileRequest::ExportView;
    if (ImGui::MenuItem("Export map as .map...")) app.ui.file_request = FileRequest::ExportMap;
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) app.ui.pending = app.document.doc.dirty() ? PendingAction::Quit : PendingAction::None,
                                            app.ui.quit_confirmed = !app.document.doc.dirty();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Edit")) {
    const std::string undo = "Undo " + app.document.doc.undo_label(), redo = "Redo " + app.document.doc.redo_label();
    if (ImGui::MenuItem(undo.c_str(), "Ctrl+Z", false, app.document.doc.can_undo())) app.document.doc.undo();
    if (ImGui::MenuItem(redo.c_str(), "Ctrl+Y", false, app.document.doc.can_redo())) app.document.doc.redo();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Map")) {
    new_map = ImGui::MenuItem("New map...");
    resize = ImGui::MenuItem("Resize...");
    generate = ImGui::MenuItem("Generate...");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Add view")) app.add_view(app.view().planner);
    if (ImGui::MenuItem("Remove this view", nullptr, false, app.views.size() > 1)) app.remove_view(app.views.active);
    ImGui::MenuItem("Lock cameras", nullptr, &app.views.lock_cameras);
    ImGui::MenuItem("Lock timelines", nullptr, &app.views.lock_timelines);
    ImGui::MenuItem("Difference overlay", nullptr, &app.ui.show_difference, app.views.size() == 2);
    if (ImGui::MenuItem("Fit", "F"))
      for (auto& v : app.views) v->fit_pending = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Compare")) {
    for (const Preset& p : presets()) {
      const bool ok = preset_available(p);
      if (ImGui::MenuItem(p.label, nullptr, false, ok)) apply_preset(app, p.id);
    }
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
  if (new_map || resize) {
    app.new_width = app.scene().map.width();
    app.new_height = app.scene().map.height();
  }
  if (new_map) ImGui::OpenPopup("New map");
  if (resize) ImGui::OpenPopup("Resize map");
  if (generate) ImGui::OpenPopup("Generate");
}

void dialogs(App& app) {
  map_dialogs(app);
  unsaved_dialog(app);
  cell_menu(app);
  scenario_window(app);
}

namespace {

// Planner figures of every view's run, by name in order of first appearance.
std::vector<std::string> figure_names(const App& app) {
  std::vector<std::string> names;
  for (const auto& v : app.views)
    if (v->has_run)
      for (const auto& [k, val] : v->result.stats)
        if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
  return names;
}

}  // namespace

float compare_height(const App& app) {
  if (app.views.size() < 2) return 0;
  float h = 56.f + 22.f * float(app.views.size());
  if (app.views.reference_run || app.views.reference) h += 18.f;
  if (app.ui.compare_figures) h += 24.f + 19.f * float(std::min<std::size_t>(figure_names(app).size() + 1, 12));
  return h;
}

void panel_compare(App& app) {
  if (app.views.size() < 2) return;
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.f;
  const Viewport& a = app.ui.map_area;
  const float h = compare_height(app);
  ImGui::SetNextWindowPos({float(a.x) / scale, float(a.y + a.height) / scale});
  ImGui::SetNextWindowSize({float(a.width) / scale, h});
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("##compare", nullptr, flags)) {
    // Each row is measured against runs for the same agent only: the optimum when an optimal
    // planner answered that query (a view, or the reference the registry names for these
    // planners), else the best of those views.
    auto baseline = [&](int agent, bool& is_optimum) {
      double best = 0, optimum = 0;
      for (const auto& v : app.views) {
        if (!v->has_run || !v->result.found || app.stale(*v) || v->shown_agent != agent) continue;
        const PlannerInfo* info = registry().find(v->shown_planner);
        if (best == 0 || v->result.length < best) best = v->result.length;
        if (info && info->optimal) optimum = v->result.length;
      }
      if (optimum == 0 && app.views.reference && app.views.reference->found && app.views.reference_key.agent == agent)
        optimum = app.views.reference->length;
      is_optimum = optimum > 0;
      return is_optimum ? optimum : best;
    };
    // "% over": each value says whether it is over the optimum or over the best view.
    const char* over_label = "% over";
    if (ImGui::BeginTable("##stats", 9, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      for (const char* c : {"view", "planner", "found", "length", over_label, "expanded",
                            "time ms", "memory KiB", "frame"})
        ImGui::TableSetupColumn(c);
      ImGui::TableHeadersRow();
      for (std::size_t i = 0; i < app.views.size(); ++i) {
        const View& v = *app.views[i];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%c%s", char('A' + i), app.stale(v) ? " (stale)" : "");
        ImGui::TableNextColumn();
        std::string label = v.has_run ? v.shown_planner : v.planner;
        for (const auto& [k, val] : v.has_run ? v.shown_params : v.params) {
          const PlannerInfo* info = registry().find(v.planner);
          bool non_default = true;
          if (info)
            for (const ParamDesc& d : info->params)
              if (d.name == k && d.default_value == val) non_default = false;
          if (non_default) label += " " + k + "=" + val;
        }
        ImGui::TextUnformatted(label.c_str());
        if (!v.has_run) {
          ImGui::TableNextColumn();
          ImGui::TextDisabled(v.run ? "running" : "not run");
          continue;
        }
        const PlanResult& r = v.result;
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.cancelled ? "cancelled" : r.found ? "yes" : "no");
        ImGui::TableNextColumn();
        if (r.found) ImGui::Text("%.4f", r.length);
        ImGui::TableNextColumn();
        bool optimum = false;
        const double base = baseline(v.shown_agent, optimum);
        if (r.found && base > 0) ImGui::Text("%.2f %s", (r.length / base - 1) * 100, optimum ? "optimal" : "best");
        ImGui::TableNextColumn();
        ImGui::Text("%llu", (unsigned long long)r.expanded);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", r.time_ms);
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", double(r.memory_bytes) / 1024.0);
        ImGui::TableNextColumn();
        if (v.cursor) ImGui::Text("%zu/%zu", v.cursor->frame(), v.cursor->last_frame());
      }
      ImGui::EndTable();
    }
    if (app.views.reference_run) ImGui::TextDisabled("optimal length: running %s...", app.views.reference_planner.c_str());
    else if (app.views.reference && app.views.reference->found)
      ImGui::TextDisabled("optimal length %.4f (%s)", app.views.reference->length, app.views.reference_planner.c_str());
    ImGui::Checkbox("planner figures (expansions per phase, graph sizes, build time...)", &app.ui.compare_figures);
    const std::vector<std::string> names = app.ui.compare_figures ? figure_names(app) : std::vector<std::string>{};
    if (!names.empty() &&
        ImGui::BeginTable("##figures", int(app.views.size()) + 1,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY)) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("figure");
      for (std::size_t i = 0; i < app.views.size(); ++i) ImGui::TableSetupColumn(std::string(1, char('A' + i)).c_str());
      ImGui::TableHeadersRow();
      for (const std::string& n : names) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(n.c_str());
        for (const auto& v : app.views) {
          ImGui::TableNextColumn();
          if (!v->has_run) continue;
          for (const auto& [k, val] : v->result.stats)
            if (k == n) ImGui::Text("%g", val);
        }
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

void shortcuts(App& app) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  auto pressed = [](int key) { return ImGui::IsKeyPressed(key, false); };
  if (io.KeyCtrl) {
    if (pressed('Z') && !io.KeyShift) app.document.doc.undo();
    if (pressed('Y') || (pressed('Z') && io.KeyShift)) app.document.doc.redo();
    if (pressed('O')) app.ui.file_request = FileRequest::Open;
    if (pressed('S')) {
      if (io.KeyShift || app.document.scene_path.empty()) app.ui.file_request = FileRequest::Save;
      else app.save(app.document.scene_path);
    }
    if (pressed('Q')) {
      if (app.document.doc.dirty()) app.ui.pending = PendingAction::Quit;
      else app.ui.quit_confirmed = true;
    }
    return;
  }
  if (io.WantCaptureKeyboard) return;
  for (int t = 0; t < int(app.tools.size()); ++t)
    if (pressed('1' + t)) {
      app.tool_index = t;
      if (app.tool().edits()) app.ui.side_tab_request = 1;  // show the tool's options
    }
  if (pressed('R') && !app.view().run) app.start_run(app.view());
}

}  // namespace pl::app
