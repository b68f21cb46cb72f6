// The unsaved-changes question (editor/unsaved_prompt.hpp), driven without a window: every
// path through it ends in the action carried out or in nothing done, never in a loop.
#include <gtest/gtest.h>

#include "editor/unsaved_prompt.hpp"

namespace pl::editor {
namespace {

using Do = UnsavedPrompt::Next::Do;
using Stage = UnsavedPrompt::Stage;

TEST(UnsavedPrompt, CleanDocumentCarriesOnAtOnce) {
  UnsavedPrompt q;
  const auto n = q.request(PendingAction::Open, /*dirty=*/false, "/tmp/a.json");
  EXPECT_EQ(n.what, Do::Carry);
  EXPECT_EQ(n.action, PendingAction::Open);
  EXPECT_EQ(n.path, "/tmp/a.json");
  EXPECT_TRUE(q.idle());
}

TEST(UnsavedPrompt, NeverSavedSceneGoesThroughSaveAsThenQuits) {
  UnsavedPrompt q;
  EXPECT_EQ(q.request(PendingAction::Quit, true).what, Do::Nothing);
  EXPECT_EQ(q.stage(), Stage::Asking);
  // Save with no file: Save As, and the question is no longer shown (it used to reopen every
  // frame on top of the file dialog).
  const auto n = q.save("");
  EXPECT_EQ(n.what, Do::SaveAs);
  EXPECT_EQ(q.stage(), Stage::SavingAs);
  EXPECT_FALSE(q.asking());
  // Buttons of the hidden question do nothing meanwhile; a second request is ignored.
  EXPECT_EQ(q.discard().what, Do::Nothing);
  EXPECT_EQ(q.request(PendingAction::New, true).what, Do::Nothing);
  EXPECT_EQ(q.action(), PendingAction::Quit);
  const auto done = q.saved(true);
  EXPECT_EQ(done.what, Do::Carry);
  EXPECT_EQ(done.action, PendingAction::Quit);
  EXPECT_TRUE(q.idle());
}

TEST(UnsavedPrompt, SaveAsThenOpensTheFileAskedFor) {
  UnsavedPrompt q;
  q.request(PendingAction::Open, true, "/maps/x.map");
  ASSERT_EQ(q.save("").what, Do::SaveAs);
  const auto done = q.saved(true);
  EXPECT_EQ(done, (UnsavedPrompt::Next{Do::Carry, PendingAction::Open, "/maps/x.map"}));
}

TEST(UnsavedPrompt, CancelledSaveAsStopsWithNothingDone) {
  UnsavedPrompt q;
  q.request(PendingAction::New, true);
  ASSERT_EQ(q.save("").what, Do::SaveAs);
  q.save_as_cancelled();
  EXPECT_TRUE(q.idle());
  EXPECT_EQ(q.action(), PendingAction::None);
  // A late report from the dialog does nothing.
  EXPECT_EQ(q.saved(true).what, Do::Nothing);
}

TEST(UnsavedPrompt, SavedSceneSavesToItsFileThenCarriesOn) {
  UnsavedPrompt q;
  q.request(PendingAction::New, true);
  const auto n = q.save("/home/u/s.json");
  EXPECT_EQ(n, (UnsavedPrompt::Next{Do::Save, PendingAction::New, "/home/u/s.json"}));
  EXPECT_TRUE(q.asking());
  EXPECT_EQ(q.saved(true).what, Do::Carry);
}

TEST(UnsavedPrompt, FailedSaveAsksAgain) {
  UnsavedPrompt q;
  q.request(PendingAction::Quit, true);
  q.save("");
  EXPECT_EQ(q.saved(false).what, Do::Nothing);
  EXPECT_TRUE(q.asking());
  EXPECT_EQ(q.action(), PendingAction::Quit);
  // The user gives up on saving.
  const auto n = q.discard();
  EXPECT_EQ(n.what, Do::Carry);
  EXPECT_EQ(n.action, PendingAction::Quit);
}

TEST(UnsavedPrompt, CancelKeepsEverything) {
  UnsavedPrompt q;
  q.request(PendingAction::Open, true, "a.json");
  q.cancel();
  EXPECT_TRUE(q.idle());
  EXPECT_TRUE(q.path().empty());
  // A fresh request after a cancel is asked again.
  q.request(PendingAction::Quit, true);
  EXPECT_TRUE(q.asking());
}

}  // namespace
}  // namespace pl::editor
