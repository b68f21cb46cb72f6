#include "editor/unsaved_prompt.hpp"

#include <utility>

namespace pl::editor {

using Do = UnsavedPrompt::Next::Do;

UnsavedPrompt::Next UnsavedPrompt::request(PendingAction action, bool dirty, std::string path) {
  if (stage_ != Stage::Idle || action == PendingAction::None) return {};
  action_ = action;
  path_ = std::move(path);
  if (!dirty) return carry();
  stage_ = Stage::Asking;
  return {};
}

UnsavedPrompt::Next UnsavedPrompt::save(const std::string& scene_path) {
  if (stage_ != Stage::Asking) return {};
  if (scene_path.empty()) {
    stage_ = Stage::SavingAs;
    return {Do::SaveAs, action_, {}};
  }
  return {Do::Save, action_, scene_path};
}

UnsavedPrompt::Next UnsavedPrompt::discard() {
  if (stage_ != Stage::Asking) return {};
  return carry();
}

void UnsavedPrompt::cancel() {
  if (stage_ == Stage::Asking) reset();
}

UnsavedPrompt::Next UnsavedPrompt::saved(bool ok) {
  if (stage_ == Stage::Idle) return {};
  if (ok) return carry();
  stage_ = Stage::Asking;  // ask again: the user may retry, discard or cancel
  return {};
}

void UnsavedPrompt::save_as_cancelled() {
  if (stage_ == Stage::SavingAs) reset();
}

UnsavedPrompt::Next UnsavedPrompt::carry() {
  Next n{Do::Carry, action_, std::move(path_)};
  reset();
  return n;
}

void UnsavedPrompt::reset() {
  stage_ = Stage::Idle;
  action_ = PendingAction::None;
  path_.clear();
}

}  // namespace pl::editor
