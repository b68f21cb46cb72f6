// The File > Open Recent list: the most recently used document paths, newest first, kept in a
// text file (one absolute path a line, UTF-8) under config_dir(). Headless so tests drive it
// without a display; the app adds a path after every successful open or save.
//
// A list that cannot be read never stops the app: load() reports the problem in error() and
// leaves the list empty, and the next save() replaces the bad file.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace pl::editor {

class RecentFiles {
 public:
  static constexpr std::size_t kDefaultMax = 10;
  // The file load() and save() use when given no path: config_dir()/recent_files.txt.
  static std::string default_path();

  explicit RecentFiles(std::size_t max = kDefaultMax);

  // Newest first, each an absolute, lexically normal path with symbolic links resolved as far
  // as the path exists, so one file opened by two spellings appears once.
  const std::vector<std::string>& paths() const { return paths_; }
  bool empty() const { return paths_.empty(); }
  std::size_t max() const { return max_; }
  // Drops the oldest entries beyond the new maximum (at least 1).
  void set_max(std::size_t max);

  // Moves path to the front (adding it if new) and drops the oldest beyond max(). A path the
  // one-path-a-line file cannot hold (empty, a line break or NUL in it, not UTF-8) is not
  // added: returns false.
  bool add(const std::string& path);
  // Removes path (any spelling of it); returns whether it was listed.
  bool remove(const std::string& path);
  void clear() { paths_.clear(); }
  // Drops entries whose file is gone and returns how many. An entry whose existence cannot be
  // checked (permission denied, an unmounted drive) stays: it may come back.
  std::size_t prune();

  // Replaces the list with the file's. A missing file is an empty list and no error. An
  // unreadable or malformed file (binary data, relative paths, far too large) gives an empty
  // list, returns false and sets error(); it never throws.
  bool load(const std::string& file = default_path());
  // Writes the list atomically (a crash leaves the old file or the new one, never half of
  // one). Returns false and sets error() on failure; never throws.
  bool save(const std::string& file = default_path());
  // What went wrong in the last load() or save(); empty after a success.
  const std::string& error() const { return error_; }

 private:
  std::vector<std::string> paths_;
  std::size_t max_;
  std::string error_;
};

// The form paths are compared and stored in (see RecentFiles::paths()).
std::string normal_path(const std::string& path);

}  // namespace pl::editor
