// File handling around the document: the open / save / import / export dialogs, recent files,
// files dropped onto the window, the autosave that lets a crash be recovered, and the recovery
// prompt at start. A failed load or save leaves the document as it was and shows the parser's
// message (App::load / App::save); nothing is thrown away without a question (UiSettings::unsaved, editor/unsaved_prompt.hpp).
#include <filesystem>
#include <memory>
#include <string>

#include <imgui.h>

#include "app/app.hpp"
#include "app/file_dialog.hpp"
#include "app/trace_export.hpp"
#include "editor/autosave.hpp"
#include "editor/recent_files.hpp"

namespace pl::app {
namespace {

namespace fs = std::filesystem;

struct FileState {
  FileDialog dialog;
  FileRequest request = FileRequest::None;  // what the open dialog is for
  editor::RecentFiles recent;
  bool recent_loaded = false;
  std::unique_ptr<editor::Autosave> autosave;
  std::optional<editor::Recovery> recovery;
  bool recovery_checked = false;
};

FileState& state() {
  static FileState s;
  return s;
}

// The folder the file dialog starts in: the one last used (shown in the dialog this session,
// else that of the most recent file), else the document's, else the current directory.
std::string start_dir(const App& app) {
  const FileState& st = state();
  if (!st.dialog.directory().empty()) return st.dialog.directory();
  std::error_code ec;
  if (!st.recent.paths().empty()) {
    const fs::path dir = fs::path(st.recent.paths().front()).parent_path();
    if (fs::is_directory(dir, ec)) return dir.string();
  }
  if (!app.document.scene_path.empty()) return fs::path(app.document.scene_path).parent_path().string();
  return fs::current_path(ec).string();
}

void remember(const std::string& path) {
  FileState& st = state();
  st.recent.add(path);
  st.recent.save();
}

void open_dialog(App& app, FileRequest r) {
  FileState& st = state();
  st.request = r;
  const std::string dir = start_dir(app);
  switch (r) {
    case FileRequest::Open:
      st.dialog.open("Open", FileDialog::Mode::Open, dir, {".json", ".map", ".scen", ".png"}, "");
      break;
    case FileRequest::Save: {
      const std::string name =
          app.document.scene_path.empty() ? "scene.json" : fs::path(app.document.scene_path).filename().string();
      st.dialog.open("Save scene as", FileDialog::Mode::Save, dir, {".json"}, name);
      break;
    }
    case FileRequest::ImportPng:
      st.dialog.open("Import PNG", FileDialog::Mode::Open, dir, {".png"}, "");
      break;
    case FileRequest::ExportView:
      st.dialog.open("Export view as PNG", FileDialog::Mode::Save, dir, {".png"}, "view.png");
      break;
    case FileRequest::ExportMap:
      st.dialog.open("Export map as .map", FileDialog::Mode::Save, dir, {".map"}, "map.map");
      break;
    case FileRequest::ExportTrace:
      st.dialog.open("Export trace (Posthoc)", FileDialog::Mode::Save, dir, {".json"}, "search.trace.json");
      break;
    case FileRequest::None: break;
  }
}

void finish_dialog(App& app, const std::string& path) {
  FileState& st = state();
  switch (st.request) {
    case FileRequest::Open:
    case FileRequest::ImportPng:
      app.request_open(path);
      if (app.ui.unsaved.idle() && app.document.load_error.empty()) remember(path);
      break;
    case FileRequest::Save: {
      const bool ok = app.save(path);
      if (ok) {
        remember(path);
        if (st.autosave) st.autosave->discard();
      }
      // A question that waited for Save As goes on now (or is asked again if the save failed).
      if (app.ui.unsaved.saving_as()) app.carry_out(app.ui.unsaved.saved(ok));
      break;
    }
    case FileRequest::ExportView: app.ui.export_view_path = path; break;
    case FileRequest::ExportTrace: export_trace(app, path); break;
    case FileRequest::ExportMap:
      try {
        save_map(app.scene().map, path);
        app.document.status_message = "exported " + path;
        app.document.load_error.clear();
      } catch (const std::exception& e) {
        app.document.load_error = e.what();
      }
      break;
    case FileRequest::None: break;
  }
  st.request = FileRequest::None;
}

void recovery_prompt(App& app) {
  FileState& st = state();
  if (!st.recovery) return;
  if (!ImGui::IsPopupOpen("Recover unsaved work")) ImGui::OpenPopup("Recover unsaved work");
  if (ImGui::BeginPopupModal("Recover unsaved work", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    const editor::Recovery& r = *st.recovery;
    ImGui::Text("pathlab did not close normally. Unsaved work from %s was kept:", r.time_text().c_str());
    ImGui::Text("%s", r.original_path.empty() ? "(a scene never saved)" : r.original_path.c_str());
    if (ImGui::Button("Recover", {120, 0})) {
      try {
        Scene s = r.load();
        for (auto& v : app.views) v->clear_run();
        app.document.doc.reset(std::move(s));
        // The recovered scene differs from its file: it stays dirty (and autosaved) until saved.
        app.document.doc.mark_unsaved();
        app.document.scene_path = r.original_path;
        app.document.status_message = "recovered work from " + r.time_text() + " (not yet saved)";
        for (auto& v : app.views) v->fit_pending = true;
        if (app.views.run_on_open) app.start_all_runs();
        r.discard();
      } catch (const std::exception& e) {
        app.document.load_error = e.what();
      }
      st.recovery.reset();
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Discard it", {120, 0})) {
      r.discard();
      st.recovery.reset();
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Later", {120, 0})) {
      st.recovery.reset();  // left on disk: offered again next start
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

}  // namespace

const std::vector<std::string>& recent_paths() { return state().recent.paths(); }

void open_recent(App& app, const std::string& path) {
  FileState& st = state();
  app.request_open(path);
  if (!app.ui.unsaved.idle()) return;
  if (app.document.load_error.empty()) st.recent.add(path);
  else st.recent.remove(path);  // gone or unreadable: the message says why
  st.recent.save();
}

void file_dialogs(App& app) {
  FileState& st = state();
  if (!st.recent_loaded) {
    st.recent.load();
    st.recent.prune();
    st.recent_loaded = true;
  }
  // Automated runs (screenshots, benchmarks) neither write nor offer autosaves.
  if (!app.ui.ignore_input) {
    if (!st.autosave) st.autosave = std::make_unique<editor::Autosave>();
    if (!st.recovery_checked) {
      st.recovery = st.autosave->find();
      st.recovery_checked = true;
    }
    st.autosave->update(editor::Autosave::Clock::now(), app.document.doc, app.document.scene_path);
    if (app.ui.quit_confirmed) st.autosave->discard();
    recovery_prompt(app);
  }

  if (!app.ui.dropped.empty()) {
    const std::string path = app.ui.dropped.front();
    app.ui.dropped.clear();
    app.request_open(path);
    if (app.ui.unsaved.idle() && app.document.load_error.empty()) remember(path);
  }
  if (app.ui.file_request != FileRequest::None) {
    open_dialog(app, app.ui.file_request);
    app.ui.file_request = FileRequest::None;
  }
  if (st.dialog.draw()) {
    finish_dialog(app, st.dialog.path());
  } else if (st.request != FileRequest::None && !st.dialog.is_open()) {
    // Cancelled: a question waiting for Save As stops there, the changes kept.
    if (st.request == FileRequest::Save) app.ui.unsaved.save_as_cancelled();
    st.request = FileRequest::None;
  }
}

}  // namespace pl::app
