#include "app/file_dialog.hpp"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

namespace pl::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPopupId = "###pathlab_file_dialog";
constexpr const char* kOverwriteId = "Replace file?###pathlab_file_dialog_overwrite";

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

template <std::size_t N>
void set_text(std::array<char, N>& buf, const std::string& s) {
  const std::size_t n = std::min(s.size(), N - 1);
  std::copy_n(s.data(), n, buf.data());
  buf[n] = '\0';
}

std::string trimmed(const char* s) {
  std::string t(s);
  const auto first = t.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return t.substr(first, t.find_last_not_of(" \t") - first + 1);
}

std::string size_text(std::uintmax_t bytes) {
  char buf[32];
  if (bytes < 1024)
    std::snprintf(buf, sizeof buf, "%ju B", bytes);
  else if (bytes < (std::uintmax_t(1) << 20))
    std::snprintf(buf, sizeof buf, "%.1f KiB", double(bytes) / 1024);
  else if (bytes < (std::uintmax_t(1) << 30))
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / (1 << 20));
  else
    std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / (1 << 30));
  return buf;
}

bool key_pressed(ImGuiKey key) {
  return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), false);
}

bool enter_pressed() {
  return key_pressed(ImGuiKey_Enter) || key_pressed(ImGuiKey_KeyPadEnter);
}

}  // namespace

void FileDialog::open(std::string title, Mode mode, std::string start_dir,
                      std::vector<std::string> extensions, std::string default_name) {
  title_ = std::move(title);
  mode_ = mode;
  result_.clear();
  error_.clear();
  overwrite_pending_ = false;

  filters_.clear();
  for (std::string& e : extensions) e = lower(std::move(e));
  if (!extensions.empty()) {
    std::string label = "All supported (";
    for (std::size_t i = 0; i < extensions.size(); ++i) label += (i ? ", *" : "*") + extensions[i];
    filters_.push_back({label + ")", extensions});
    if (extensions.size() > 1)
      for (const std::string& e : extensions) filters_.push_back({"*" + e, {e}});
  }
  filters_.push_back({"All files (*)", {}});
  filter_ = 0;

  // A file as the start: show its directory and offer its name.
  std::error_code ec;
  if (!start_dir.empty() && fs::is_regular_file(start_dir, ec)) {
    if (default_name.empty()) default_name = fs::path(start_dir).filename().string();
    start_dir = fs::path(start_dir).parent_path().string();
    if (start_dir.empty()) start_dir = ".";
  }
  if (start_dir.empty() || !fs::is_directory(start_dir, ec)) start_dir = dir_;
  if (start_dir.empty() || !fs::is_directory(start_dir, ec)) start_dir = ".";
  if (!navigate(start_dir)) navigate("/");
  set_text(name_buf_, default_name);

  visible_ = true;
  open_pending_ = true;
}

bool FileDialog::navigate(const std::string& dir) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(dir), ec);
  if (ec) {
    error_ = dir + ": " + ec.message();
    return false;
  }
  // Lexical, not canonical: ".." then leads back the way the user came, through links too.
  p = p.lexically_normal();
  if (!p.has_filename() && p != p.root_path()) p = p.parent_path();  // "/a/b/" -> "/a/b"
  if (!fs::is_directory(p, ec)) {
    // The typed path stays in the field, to be corrected.
    error_ = p.string() + (ec ? ": " + ec.message() : std::string(": not a directory"));
    return false;
  }
  dir_ = p.string();
  set_text(dir_buf_, dir_);
  error_.clear();
  read_dir();
  return true;
}

bool FileDialog::matches(const std::string& name) const {
  const auto& exts = filters_[std::size_t(filter_)].extensions;
  if (exts.empty()) return true;
  const std::string l = lower(name);
  for (const std::string& e : exts)
    if (l.size() > e.size() && l.ends_with(e)) return true;
  return false;
}

void FileDialog::read_dir() {
  entries_.clear();
  selected_ = -1;
  std::error_code ec;
  fs::directory_iterator it(dir_, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    error_ = "Cannot read " + dir_ + ": " + ec.message();
    return;
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!show_hidden_ && name.starts_with('.')) continue;
    std::error_code entry_ec;
    // Follows links, so a link to a directory is entered like one. A broken link is a file.
    const bool dir = it->is_directory(entry_ec);
    if (!dir && !matches(name)) continue;
    std::uintmax_t size = 0;
    if (!dir) {
      size = it->file_size(entry_ec);
      if (entry_ec) size = 0;
    }
    entries_.push_back({std::move(name), dir, size});
  }
  if (ec) error_ = "Could not list all of " + dir_ + ": " + ec.message();
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    if (a.dir != b.dir) return a.dir;
    const std::string la = lower(a.name), lb = lower(b.name);
    return la != lb ? la < lb : a.name < b.name;
  });
}

void FileDialog::finish(const std::string& file) {
  result_ = file;
  visible_ = false;
  ImGui::CloseCurrentPopup();
}

bool FileDialog::confirm() {
  error_.clear();
  const std::string name = trimmed(name_buf_.data());
  if (name.empty()) {
    // OK with a directory selected enters it, as a double click would.
    if (selected_ >= 0 && entries_[std::size_t(selected_)].dir) {
      navigate((fs::path(dir_) / entries_[std::size_t(selected_)].name).string());
      return false;
    }
    error_ = mode_ == Mode::Save ? "Type a file name." : "Choose a file.";
    return false;
  }
  fs::path target(name);
  if (target.is_relative()) target = fs::path(dir_) / target;
  target = target.lexically_normal();
  std::error_code ec;
  // A typed directory (or "..") is entered, not chosen.
  if (fs::is_directory(target, ec)) {
    if (navigate(target.string())) set_text(name_buf_, "");
    return false;
  }
  if (mode_ == Mode::Open) {
    if (!fs::exists(target, ec)) {
      error_ = target.string() + ": no such file";
      return false;
    }
    finish(target.string());
    return true;
  }

  if (!target.has_extension()) {
    const auto& exts = filters_[std::size_t(filter_)].extensions;
    if (!exts.empty()) target += exts.front();
  }
  const fs::path parent = target.parent_path();
  if (!fs::is_directory(parent, ec)) {
    error_ = parent.string() + ": no such directory";
    return false;
  }
  const fs::file_status st = fs::status(target, ec);
  if (fs::is_directory(st)) {
    error_ = target.string() + " is a directory";
    return false;
  }
  if (fs::exists(st)) {
    overwrite_target_ = target.string();
    overwrite_pending_ = true;
    return false;
  }
  finish(target.string());
  return true;
}

bool FileDialog::draw() {
  if (!visible_) return false;
  const std::string id = title_ + kPopupId;
  if (open_pending_) {
    ImGui::OpenPopup(id.c_str());
    open_pending_ = false;
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(
      ImVec2(std::min(720.0f, vp->Size.x * 0.9f), std::min(480.0f, vp->Size.y * 0.9f)),
      ImGuiCond_Appearing);
  bool keep_open = true;
  if (!ImGui::BeginPopupModal(id.c_str(), &keep_open)) {
    // Closed by its title bar's button (or by someone else): a cancel.
    visible_ = false;
    return false;
  }

  // Whether a text field had the keyboard (as of the last frame).
  const bool typing = ImGui::GetIO().WantTextInput;
  const bool asking = ImGui::IsPopupOpen(kOverwriteId) || overwrite_pending_;
  bool done = false;
  bool want_confirm = false;
  std::string enter_dir;

  // ---- directory row
  if (ImGui::Button("Up")) enter_dir = fs::path(dir_).parent_path().string();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Parent directory (Backspace)");
  ImGui::SameLine();
  const float refresh_w = ImGui::CalcTextSize("Refresh").x + ImGui::GetStyle().FramePadding.x * 2;
  ImGui::SetNextItemWidth(-(refresh_w + ImGui::GetStyle().ItemSpacing.x));
  if (ImGui::InputText("##dir", dir_buf_.data(), dir_buf_.size(),
                       ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll))
    enter_dir = dir_buf_.data();
  ImGui::SameLine();
  if (ImGui::Button("Refresh")) enter_dir = dir_;

  // ---- the list: directories, then matching files
  const ImGuiStyle& style = ImGui::GetStyle();
  const float footer =
      ImGui::GetTextLineHeightWithSpacing() + ImGui::GetFrameHeightWithSpacing() * 2;
  ImGui::BeginChild("##entries", ImVec2(0, -footer), true);
  const float size_x = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("1023.9 MiB").x;
  ImGuiListClipper clipper;
  clipper.Begin(int(entries_.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const Entry& e = entries_[std::size_t(i)];
      ImGui::PushID(i);
      if (e.dir) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.80f, 0.45f, 1.0f));
      const std::string label = e.dir ? e.name + "/" : e.name;
      if (ImGui::Selectable(
              label.c_str(), selected_ == i,
              ImGuiSelectableFlags_AllowDoubleClick | ImGuiSelectableFlags_DontClosePopups)) {
        selected_ = i;
        if (!e.dir) set_text(name_buf_, e.name);
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
          if (e.dir)
            enter_dir = (fs::path(dir_) / e.name).string();
          else
            want_confirm = true;
        }
      }
      if (e.dir) ImGui::PopStyleColor();
      if (!e.dir && size_x > 0) {
        ImGui::SameLine(size_x);
        ImGui::TextDisabled("%s", size_text(e.size).c_str());
      }
      ImGui::PopID();
    }
  }
  if (entries_.empty() && error_.empty()) ImGui::TextDisabled("(no matching files)");
  ImGui::EndChild();

  // ---- message line (always reserved, so the layout does not jump)
  if (!error_.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", error_.c_str());
  else
    ImGui::TextDisabled("%zu entries in %s", entries_.size(), dir_.c_str());

  // ---- file name and filter
  const float filter_w = std::min(260.0f, ImGui::GetContentRegionAvail().x * 0.35f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("File name");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-(filter_w + style.ItemSpacing.x));
  // The name box has the keyboard from the start with its pre-filled name selected, so typing
  // replaces it (Open and Save alike; Escape still cancels).
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  if (ImGui::InputText("##name", name_buf_.data(), name_buf_.size(),
                       ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll))
    want_confirm = true;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(filter_w);
  if (ImGui::BeginCombo("##filter", filters_[std::size_t(filter_)].label.c_str())) {
    for (int k = 0; k < int(filters_.size()); ++k) {
      if (ImGui::Selectable(filters_[std::size_t(k)].label.c_str(), k == filter_) && k != filter_) {
        filter_ = k;
        read_dir();
      }
    }
    ImGui::EndCombo();
  }

  // ---- buttons
  if (ImGui::Checkbox("Show hidden", &show_hidden_)) read_dir();
  const char* ok_label = mode_ == Mode::Save ? "Save" : "Open";
  const float button_w = 90;
  ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - 2 * button_w - style.ItemSpacing.x);
  if (ImGui::Button(ok_label, ImVec2(button_w, 0))) want_confirm = true;
  ImGui::SameLine();
  bool cancel = ImGui::Button("Cancel", ImVec2(button_w, 0)) || !keep_open;

  if (!asking) {
    // Escape cancels even from a text field (the dialog starts in one); Enter and
    // Backspace in a field edit the field.
    if (key_pressed(ImGuiKey_Escape)) cancel = true;
    if (!typing && enter_pressed()) want_confirm = true;
    if (!typing && key_pressed(ImGuiKey_Backspace))
      enter_dir = fs::path(dir_).parent_path().string();
  }

  if (cancel) {
    visible_ = false;
    ImGui::CloseCurrentPopup();
  } else if (!enter_dir.empty()) {
    navigate(enter_dir);
  } else if (want_confirm && !asking) {
    done = confirm();
  }

  // ---- "replace?" question, a modal inside the modal
  if (overwrite_pending_) {
    ImGui::OpenPopup(kOverwriteId);
    overwrite_pending_ = false;
  }
  if (ImGui::BeginPopupModal(kOverwriteId, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::Text("%s already exists.", overwrite_target_.c_str());
    ImGui::TextUnformatted("Replace it?");
    // Not on the frame it appears: the Enter that asked must not also answer.
    const bool fresh = ImGui::IsWindowAppearing();
    bool replace = ImGui::Button("Replace", ImVec2(button_w, 0)) || (!fresh && enter_pressed());
    ImGui::SameLine();
    bool keep =
        ImGui::Button("Cancel", ImVec2(button_w, 0)) || (!fresh && key_pressed(ImGuiKey_Escape));
    if (replace || keep) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    if (replace) {
      finish(overwrite_target_);  // closes the dialog itself, the current popup again
      done = true;
    }
  }

  ImGui::EndPopup();
  return done;
}

}  // namespace pl::app
