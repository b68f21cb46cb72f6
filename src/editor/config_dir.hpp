// Where pathlab keeps per-user state: the ImGui layout, the recent-files list and autosaves.
// One function so the app, the recent-files list and the autosave agree on the place.
#pragma once

#include <string>

namespace pl::editor {

// $XDG_CONFIG_HOME/pathlab, else $HOME/.config/pathlab, else the current directory. The
// directory is created (with its parents) when missing; if that fails the path is still
// returned, so the caller's own write reports the problem where it can be shown.
std::string config_dir();

}  // namespace pl::editor
