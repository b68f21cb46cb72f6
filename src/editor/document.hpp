// The open document of the editor: a Scene plus its edit history. Every change to the scene
// goes through this class so it can be undone, counted (version) and tracked against the saved
// file (dirty). It is headless on purpose (like Tracy's server/): the app's tools and panels
// call it, and tests drive it without a display.
//
// History model. An edit is recorded while it is made, as the smallest inverse that restores
// it: the old value of each changed cell, the old circle or agent at an index, or (for whole-map
// operations such as new, resize and generate) a snapshot of the old map. Each recorded piece
// swaps itself with the scene when applied, so the same record serves undo and redo and no
// step ever stores both the before and the after state.
//
// Steps. Edits made between begin_step() and end_step() form one undo step; steps nest, so a
// tool that opens its own step joins an enclosing one. A brush drag calls begin_stroke() on
// press and end_stroke() on release, and every stamp in between lands in one step. An edit
// that changes nothing (painting what is there) is not recorded and leaves the version alone;
// a step whose cells all ended where they began leaves no undo entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/scene.hpp"

namespace pl::editor {

class Document {
 public:
  explicit Document(Scene scene = {});
  ~Document();
  Document(Document&&) noexcept;
  Document& operator=(Document&&) noexcept;
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  // The scene as it is now. Read-only: changes go through the editing calls below. Caches
  // keyed by GridMap (uid, version) stay correct: cell edits bump the map's version, and
  // whole-map steps (and their undo) leave scene().map with a new uid.
  const Scene& scene() const { return scene_; }

  // Replaces the whole scene (a file was opened, "new document"): clears the history and
  // counts as saved. The version still changes, so views drop their runs.
  void reset(Scene scene);

  // ---- Change tracking
  // Changes on every edit, undo and redo, and never returns to an earlier value, so a view
  // that remembers the version its run was made for knows when the run is stale.
  std::uint64_t version() const { return version_; }
  // True when the scene differs from the last saved (or opened) state. Undoing back to the
  // saved state makes it clean again; so does mark_saved().
  bool dirty() const { return state_ != saved_state_ || settings_dirty_; }
  void mark_saved();
  // The scene differs from every saved file (a recovered autosave): dirty until the next save.
  void mark_unsaved();

  // ---- Steps
  // `label` names the step in the Edit menu ("Undo Brush"); the outermost label wins.
  void begin_step(const std::string& label);
  // Closes the innermost step; closing the outermost one commits it. Extra calls are ignored,
  // so a tool can end its stroke after undo() already closed it.
  void end_step();
  void begin_stroke(const std::string& label) { begin_step(label); }
  void end_stroke() { end_step(); }
  bool in_step() const { return depth_ > 0; }

  // RAII form of begin_step / end_step for code paths that may throw.
  class Step {
   public:
    Step(Document& doc, const std::string& label) : doc_(doc) { doc_.begin_step(label); }
    ~Step() { doc_.end_step(); }
    Step(const Step&) = delete;
    Step& operator=(const Step&) = delete;

   private:
    Document& doc_;
  };

  // ---- Recorded edits (the primitives tools are built from). Each one outside a step is a
  // step of its own. Indices must be valid (std::out_of_range otherwise).
  // Sets a cell if it is on the map and differs; returns whether it changed.
  bool set_cell(int x, int y, TerrainId t);
  // Replaces the whole map (size, palette and cells) and the referenced .map file; nothing
  // happens when both are unchanged.
  void replace_map(GridMap map, std::optional<std::string> map_file);
  // Replaces only the palette (GridMap::set_palette checks that every cell still fits).
  void set_palette(Palette palette);
  void set_circle(std::size_t i, const Circle& c);
  void insert_circle(std::size_t i, const Circle& c);
  void erase_circle(std::size_t i);
  void replace_circles(std::vector<Circle> circles);
  void set_agent(std::size_t i, const Agent& a);
  void insert_agent(std::size_t i, const Agent& a);
  void erase_agent(std::size_t i);

  // Planner set-ups and camera/display settings are saved with the scene but are not edits of
  // the problem: they make the document dirty without an undo step or a version change (a
  // view compares its own planner settings to decide whether its run is stale).
  void set_views(std::vector<ViewSetup> views);

  // ---- Undo / redo. Both first commit a step that is still open.
  bool can_undo() const;
  bool can_redo() const;
  bool undo();
  bool redo();
  std::size_t undo_count() const;
  std::size_t redo_count() const;
  // Label of the step undo() / redo() would apply, empty when there is none.
  std::string undo_label() const;
  std::string redo_label() const;

  // ---- Memory limit of the history. After each commit the oldest undo steps are dropped
  // until undo + redo history fits; the newest undo step is always kept, however large, so the
  // last operation can always be undone.
  void set_memory_limit(std::size_t bytes);
  std::size_t memory_limit() const { return memory_limit_; }
  // Approximate bytes held by the history (undo and redo steps).
  std::size_t memory_used() const;

  struct Op;  // one recorded inverse (internal)
  struct StepRecord;

 private:
  Scene scene_;
  std::uint64_t version_ = 0;
  std::uint64_t state_ = 0, saved_state_ = 0, next_state_ = 1;
  bool settings_dirty_ = false;
  int depth_ = 0;
  std::unique_ptr<StepRecord> pending_;
  std::vector<std::unique_ptr<StepRecord>> undo_, redo_;
  std::size_t memory_limit_ = std::size_t(256) << 20;
  std::size_t history_bytes_ = 0;

  StepRecord& pending();
  // Records one inverse op (an alternative of Op's variant) in the pending step, closing the
  // step's previous cell run first; commits it when no step is open.
  template <class T>
  void record(T&& op);
  // The same without closing: for edits that must close the run before they change the map.
  template <class T>
  void push(T&& op);
  void close_last_cells();
  // The list edits behind circles and agents (one implementation for both lists).
  template <class T>
  void set_item(std::vector<T>& list, std::size_t i, const T& value);
  template <class T>
  void insert_item(std::vector<T>& list, std::size_t i, const T& value, const char* what);
  template <class T>
  void erase_item(std::vector<T>& list, std::size_t i);
  template <class T>
  void replace_items(std::vector<T>& list, std::vector<T> items);
  void changed() { ++version_; }
  void commit();
  void trim();
};

// Whole-scene comparison of everything the history restores (map size, palette, cells, map
// file, circles, agents). Used by tests and by "is this still the saved scene" checks.
bool same_edit_content(const Scene& a, const Scene& b);

}  // namespace pl::editor
