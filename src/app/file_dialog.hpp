// A file chooser drawn with Dear ImGui, which has none of its own, for Open and Save As. It is a
// modal popup over the app: the directory as an editable path, a parent button, the
// directories and then the files that match the chosen extension filter (case-insensitive
// order, clipped so a directory of thousands of files costs only the visible rows), a file
// name field, OK and Cancel. Problems (an unreadable directory, no such file) are shown in the
// dialog and never thrown: the user fixes the path and carries on.
//
// It depends on imgui.h and the standard library only, so it can be used by any panel.
// std::filesystem is called through its error_code overloads throughout, so a directory that
// vanishes or a permission error while the dialog is open is a message, not an exception.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace pl::app {

struct FileDialog {
  enum class Mode { Open, Save };

  // Opens the dialog; it appears on the next draw(). `extensions` are suffixes such as ".json"
  // (matched case-insensitively; empty = every file). The filter combo offers all of them
  // together, each alone, and all files. `start_dir` may also name a file, whose directory is
  // shown and whose name is the default; empty or not a directory = the directory shown last,
  // else the current directory. In Save mode a name typed without an extension gets the
  // filter's (the first one for "all supported"), and an existing file needs confirming.
  void open(std::string title, Mode mode, std::string start_dir,
            std::vector<std::string> extensions, std::string default_name = {});

  // Call every frame, outside any window or always at the same place of the ID stack (the
  // popup is looked up by ID). Returns true once, on the frame the user confirms; path() is
  // then the chosen file, absolute.
  bool draw();

  const std::string& path() const { return result_; }
  bool is_open() const { return visible_; }
  Mode mode() const { return mode_; }
  // The directory shown last (also after a cancel), for the next open().
  const std::string& directory() const { return dir_; }

 private:
  struct Entry {
    std::string name;
    bool dir = false;
    std::uintmax_t size = 0;
  };
  struct Filter {
    std::string label;
    std::vector<std::string> extensions;  // lower case; empty = all files
  };

  bool navigate(const std::string& dir);
  void read_dir();
  bool matches(const std::string& name) const;
  // OK: resolves the name field; true when the dialog is done (result_ set).
  bool confirm();
  void finish(const std::string& file);

  std::string title_ = "Open";
  Mode mode_ = Mode::Open;
  std::vector<Filter> filters_;
  int filter_ = 0;
  bool show_hidden_ = false;

  std::string dir_;
  std::vector<Entry> entries_;
  int selected_ = -1;
  std::string error_;
  std::array<char, 4096> dir_buf_{};
  std::array<char, 1024> name_buf_{};

  bool visible_ = false;
  bool open_pending_ = false;
  bool overwrite_pending_ = false;  // open the "replace?" question on the next draw
  std::string overwrite_target_;
  std::string result_;
};

}  // namespace pl::app
