// The main menu bar and the keyboard shortcuts. What the menus open lives beside: presets.cpp
// (the Compare menu), dialogs.cpp (unsaved changes, map size, generator, cell menu),
// scenario_window.cpp, files.cpp (file dialogs).
#include <string>

#include <imgui.h>

#include "app/app.hpp"

namespace pl::app {

void main_menu(App& app) {
  // The bar's background is cleared by the renderer, as begin_opaque_panel's windows are: the
  // menu bar's colour over the window's, both opaque in the app's style.
  const ImVec4 bar = ImGui::GetStyle().Colors[ImGuiCol_MenuBarBg];
  const bool cleared = bar.w >= 1.0f && ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w >= 1.0f;
  if (cleared) {
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4{0, 0, 0, 0});
    ImGui::PushStyleColor(ImGuiCol_MenuBarBg, ImVec4{0, 0, 0, 0});
  }
  const bool shown = ImGui::BeginMainMenuBar();
  if (cleared) ImGui::PopStyleColor(2);
  if (!shown) return;
  app.ui.menu_height = ImGui::GetWindowSize().y;
  if (cleared) {
    // As ImGui paints it: the window's colour, then the bar's inset by the window border.
    const ImVec2 p = ImGui::GetWindowPos();
    const float w = ImGui::GetWindowSize().x, border = ImGui::GetStyle().WindowBorderSize;
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    app.ui.opaque_panels.push_back({p.x, p.y, w, app.ui.menu_height, bg.x, bg.y, bg.z});
    app.ui.opaque_panels.push_back(
        {p.x + border, p.y, w - 2 * border, app.ui.menu_height, bar.x, bar.y, bar.z});
  }
  bool new_map = false, resize = false, generate = false;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("New scene", "Ctrl+N")) app.request_new();
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
    if (ImGui::MenuItem("Export trace (Posthoc)...", nullptr, false, app.view().trace != nullptr))
      app.ui.file_request = FileRequest::ExportTrace;
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) app.request_quit();
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
    compare_menu_items(app);
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

void shortcuts(App& app) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  auto pressed = [](int key) { return ImGui::IsKeyPressed(key, false); };
  if (io.KeyCtrl) {
    if (pressed('Z') && !io.KeyShift) app.document.doc.undo();
    if (pressed('Y') || (pressed('Z') && io.KeyShift)) app.document.doc.redo();
    if (pressed('N')) app.request_new();
    if (pressed('O')) app.ui.file_request = FileRequest::Open;
    if (pressed('S')) {
      if (io.KeyShift || app.document.scene_path.empty()) app.ui.file_request = FileRequest::Save;
      else app.save(app.document.scene_path);
    }
    if (pressed('Q')) app.request_quit();
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
