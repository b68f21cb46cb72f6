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
// The app's per-frame update() only snapshots the document (a copy of the scene); formatting
// and writing happen on a worker thread of this object, so a big map never stalls a frame.
// A newer snapshot replaces one still waiting; discard() drops a waiting snapshot and waits
// for a write in progress before it deletes the file, so no late write can bring back an
// autosave that was discarded. The destructor finishes a waiting write (it holds the user's
// latest edits) and joins the worker.
//
// Each running app writes its own file, autosave-<pid>.json, so two instances never overwrite
// each other's, and find() skips the files of processes that are still running (one of them
// may be the other instance, with its edits still in memory). A file whose writer is gone is
// an orphan, whatever its age.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
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
  ~Autosave();
  Autosave(const Autosave&) = delete;
  Autosave& operator=(const Autosave&) = delete;

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

  // Writes scene (map cells embedded) atomically to path(), on the calling thread. Never
  // throws: returns false and sets error() when the scene cannot be serialised or the file
  // cannot be written.
  bool write(const Scene& scene, const std::string& original_path);
  // Hands a snapshot to the worker thread, which writes it as write() does; returns at once.
  void write_async(Scene snapshot, const std::string& original_path);
  // Blocks until no snapshot waits and no write is in progress (tests, and before reading
  // error() for a write just handed over).
  void wait();

  // The per-frame call that combines due() and write_async(), and also discards the autosave
  // when the document became clean again (saved, or undone back to its saved state), so a
  // crash later offers nothing stale. Returns false when the last finished write failed (see
  // error()).
  bool update(Clock::time_point now, const Document& doc, const std::string& original_path);

  // Autosaves of other sessions whose process is gone, newest first. Files that cannot be
  // read as autosaves are skipped and described in error() (they are left on disk: they are
  // the user's data, and a later version of pathlab may read them).
  std::vector<Recovery> find_all();
  // The newest of find_all(), if any.
  std::optional<Recovery> find();

  // Removes this instance's file (after a save, an open, on a clean exit). Never throws.
  void discard();

  // What went wrong in the last write(), find() or discard(); empty after a success. A copy:
  // the worker thread may set it.
  std::string error() const;

 private:
  struct Job {
    Scene scene;
    std::string original_path;
  };
  // Formats and writes; the file system work runs without the lock.
  bool write_now(const Scene& scene, const std::string& original_path);
  void run_worker();

  const std::string dir_, path_;
  const std::chrono::duration<double> interval_;
  const int pid_;
  std::optional<Clock::time_point> last_;  // the UI thread's only

  // Shared with the worker thread, under mutex_.
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<std::uint64_t> version_;  // of the last autosave since discard()
  bool on_disk_ = false;                  // our file exists (as far as we know)
  std::string error_;
  std::optional<Job> job_;  // the snapshot waiting for the worker
  bool writing_ = false;    // the worker is writing a snapshot
  bool stop_ = false;
  std::thread worker_;      // started by the first write_async()
};

}  // namespace pl::editor
