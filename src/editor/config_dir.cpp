#include "editor/config_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace pl::editor {

std::string config_dir() {
  namespace fs = std::filesystem;
  fs::path dir;
  // XDG says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x && fs::path(x).is_absolute())
    dir = fs::path(x) / "pathlab";
  else if (const char* h = std::getenv("HOME"); h && *h)
    dir = fs::path(h) / ".config" / "pathlab";
  else
    return ".";
  std::error_code ec;
  fs::create_directories(dir, ec);
  return dir.string();
}

}  // namespace pl::editor
