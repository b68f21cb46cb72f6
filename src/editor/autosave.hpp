// Crash recovery for the open document. While the document has unsaved changes the app writes
// it, every `interval` at most, to an autosave file under config_dir(); a clean exit, a save or
// an open removes the file again. So a file that is still there when pathlab starts belongs to
// a session that crashed (or was killed), and find() offers it for recovery.
//
// The autosave is an ordinary scene file (core/io.hpp) with one extra top-level field,
// "pathlab_autosave": {"original": path or null, "map_file": name or null, "time": unix
// seconds, "pid": writer}. One file, written atomically, so the data and the facts about it
// can never disagree, and a user can open it by hand as a scene. The map's cells are always
// embedded, even when the document references a .map file: recovery must not depend on a file
// that may have changed or gone since; the reference itself is restored on load().
//
// Each running app writes its own file, autosave-<pid>.json, so two instances never overwrite
// each other's, and find() skips the files of processes that are still running (one of them
// may be the other instance, with its edits still in memory). A file whose writer is gone is
// an orphan, whatever its age.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/scene.hpp"
#include "editor/config_dir.hpp"
#include "editor/document.hpp"

namespace pl::editor {

// An autosave left by a session that ended without cleaning up.
struct Recovery {
  // The autosave file itself.
  std::string file;
  // The document's file; empty when it was never saved.
  std::string original_path;
  // The document's .map reference, restored by load().
  std::optional<std::string> map_file;
  // When it was written, and by which process.
  std::chrono::system_clock::time_point time;
  int pid = 0;

  // The document as autosaved: the scene with the autosave's own field removed and the .map
  // reference restored (its cells are the autosaved ones, not the .map file's).
  Scene load() const;
  // "2026-11-22 02:30:05" in local time, for the recovery prompt.
  std::string time_text() const;
  // Deletes the file (after recovering it, or when the user declines). False + error on
  // failure; a file already gone counts as deleted.
  bool discard(std::string* error = nullptr) const;

  std::shared_ptr<const Scene> scene;  // as parsed by find(), autosave field included
};

class Autosave {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Autosave(std::string dir = config_dir(),
                    std::chrono::duration<double> interval = std::chrono::seconds(30));

  // This instance's file: dir/autosave-<pid>.json.
  const std::string& path() const { return path_; }
  const std::string& dir() const { return dir_; }
  std::chrono::duration<double> interval() const { return interval_; }

  // Whether to write now: the document is dirty, its version differs from the last autosave's
  // (or nothing was written since discard()), and the last autosave is at least interval()
  // old (the first change after a start is written at once). A true answer counts as the
  // write's start, so a failing write is retried one interval later, not every frame.
  // Changes that leave Document::version() alone (view settings) wait for the next edit.
  bool due(Clock::time_point now, std::uint64_t document_version, bool dirty);

  // Writes scene (map cells embedded) atomically to path(). Never throws: returns false and
  // sets error() when the scene cannot be serialised or the file cannot be written.
  bool write(const Scene& scene, const std::string& original_path);

  // The per-frame call that combines the two, and also discards the autosave when the
  // document became clean again (saved, or undone back to its saved state), so a crash later
  // offers nothing stale. Returns false when a write failed (see error()).
  bool update(Clock::time_point now, const Document& doc, const std::string& original_path);

  // Autosaves of other sessions whose process is gone, newest first. Files that cannot be
  // read as autosaves are skipped and described in error() (they are left on disk: they are
  // the user's data, and a later version of pathlab may read them).
  std::vector<Recovery> find_all();
  // The newest of find_all(), if any.
  std::optional<Recovery> find();

  // Removes this instance's file (after a save, an open, on a clean exit). Never throws.
  void discard();

  // What went wrong in the last write(), find() or discard(); empty after a success.
  const std::string& error() const { return error_; }

 private:
  std::string dir_, path_;
  std::chrono::duration<double> interval_;
  int pid_;
  std::optional<Clock::time_point> last_;
  std::optional<std::uint64_t> version_;  // of the last autosave since discard()
  bool on_disk_ = false;                  // our file exists (as far as we know)
  std::string error_;
};

}  // namespace pl::editor
