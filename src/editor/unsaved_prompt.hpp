// The question asked before unsaved changes would be thrown away (open another file, a new
// scene, quit), as a state machine with no user interface, so a test can drive it without a
// window. The app shows the question while stage() is Asking, opens Save As while it is
// SavingAs, and carries out whatever a call returns (Next).
//
//   Idle --request(dirty)--> Asking --save(), never saved--> SavingAs --saved(true)--> Idle + carry on
//     |                        | save(), has a file: Save; saved(true) -> Idle + carry on
//     | request(clean):        | discard() -> Idle + carry on
//     |   carry on at once     | cancel()  -> Idle, nothing done
//                              SavingAs: save_as_cancelled() -> Idle, nothing done;
//                                        saved(false) -> Asking again (the error is shown)
#pragma once

#include <string>

namespace pl::editor {

// What the user asked for that would throw away unsaved changes.
enum class PendingAction { None, Open, New, Quit };

class UnsavedPrompt {
 public:
  enum class Stage { Idle, Asking, SavingAs };

  // What the app must do after a call.
  struct Next {
    enum class Do {
      Nothing,  // wait (or the question was cancelled)
      Carry,    // carry out `action` now (Open: load `path`)
      Save,     // save the document to `path`, then call saved()
      SaveAs,   // show the Save As dialog; then saved() or save_as_cancelled()
    };
    Do what = Do::Nothing;
    PendingAction action = PendingAction::None;
    std::string path;
    bool operator==(const Next&) const = default;
  };

  // The user asked for `action` (Open: of `path`). Without unsaved changes it is carried out
  // at once; with them the question is asked. A request while a question is open is ignored.
  Next request(PendingAction action, bool dirty, std::string path = {});

  // The question's buttons (while Asking; otherwise they do nothing). save(): the document's
  // file, empty when it was never saved (then Save As is shown first).
  Next save(const std::string& scene_path);
  Next discard();
  void cancel();

  // The save that save() asked for (or the Save As dialog's) finished: on success the action
  // is carried out; on failure the question is asked again (the app shows the error).
  Next saved(bool ok);
  // Save As was closed without choosing a file: nothing is done, the changes stay.
  void save_as_cancelled();

  Stage stage() const { return stage_; }
  bool idle() const { return stage_ == Stage::Idle; }
  bool asking() const { return stage_ == Stage::Asking; }
  bool saving_as() const { return stage_ == Stage::SavingAs; }
  PendingAction action() const { return action_; }
  const std::string& path() const { return path_; }

 private:
  Next carry();
  void reset();

  Stage stage_ = Stage::Idle;
  PendingAction action_ = PendingAction::None;
  std::string path_;
};

}  // namespace pl::editor
