// Crash recovery: when an autosave is due, what it writes (the whole scene with the map's cells,
// whatever the document references), what a later session finds (only files whose writer is
// gone, newest first, bad files reported and left alone), and when the file goes away again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "core/io.hpp"
#include "editor/autosave.hpp"
#include "editor/document.hpp"
#include "io_test_util.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using pl::Scene;
using pl::editor::Autosave;
using pl::editor::Document;
using pl::editor::Recovery;
using pl::iotest::TempDir;

namespace {

// A pid no process can have (Linux pids stop at 2^22), so its file is always an orphan.
constexpr int kDeadPid = 999999991;

Scene sample_scene() {
  Scene s;
  s.map = pl::GridMap(7, 5);
  for (int x = 0; x < 7; ++x) s.map.set(x, 2, pl::TerrainId(x % 5));
  s.circles = {{2.5, 1.5, 0.75}};
  pl::Agent a;
  a.name = "scout \xc3\xa9";
  a.start = {0.5, 0.5, 0};
  a.goal = {6.5, 4.5, 1};
  s.agents = {a};
  s.views = {pl::ViewSetup{"astar", {{"weight", "1.5"}}, 0}};
  s.view_json = R"({"zoom":4})";
  s.unknown_fields["from_the_future"] = "[1,2,3]";
  return s;
}

testing::AssertionResult same_scene(const Scene& a, const Scene& b) {
  if (!a.map.same_content(b.map)) return testing::AssertionFailure() << "map";
  if (a.map_file != b.map_file) return testing::AssertionFailure() << "map_file";
  if (a.circles != b.circles) return testing::AssertionFailure() << "circles";
  if (a.agents != b.agents) return testing::AssertionFailure() << "agents";
  if (a.views != b.views) return testing::AssertionFailure() << "views";
  if (a.view_json != b.view_json) return testing::AssertionFailure() << "view_json";
  if (a.unknown_fields != b.unknown_fields) return testing::AssertionFailure() << "unknown fields";
  return testing::AssertionSuccess();
}

std::string orphan_name(int pid) {
  return "autosave-" + std::to_string(pid) + ".json";
}

// Turns this process's autosave into one left by process `pid`, as a crash would leave it.
void orphan(const Autosave& a, const TempDir& tmp, int pid) {
  fs::rename(a.path(), tmp.path / orphan_name(pid));
}

TEST(Autosave, DueOnlyForUnsavedChangesAndAtMostOncePerInterval) {
  TempDir tmp("autosave_due");
  Autosave a(tmp.path.string(), 30s);
  const auto t0 = Autosave::Clock::now();
  EXPECT_FALSE(a.due(t0, 1, false));      // clean: nothing to protect
  EXPECT_TRUE(a.due(t0, 1, true));        // the first change goes out at once
  EXPECT_FALSE(a.due(t0 + 1s, 1, true));  // nothing new
  EXPECT_FALSE(a.due(t0 + 2s, 2, true));  // new, but the last autosave is recent
  EXPECT_FALSE(a.due(t0 + 29s, 3, true));
  EXPECT_TRUE(a.due(t0 + 30s, 3, true));
  EXPECT_FALSE(a.due(t0 + 90s, 3, true));  // unchanged since, however long
  EXPECT_FALSE(a.due(t0 + 90s, 4, false));
  EXPECT_TRUE(a.due(t0 + 90s, 4, true));
  // After discard() (a save) the same version counts as not autosaved.
  a.discard();
  EXPECT_TRUE(a.due(t0 + 200s, 4, true));
}

TEST(Autosave, AnotherSessionRecoversTheScene) {
  TempDir tmp("autosave_recover");
  const Scene scene = sample_scene();
  const auto before = std::chrono::system_clock::now();
  {
    Autosave a(tmp.path.string());
    EXPECT_EQ(fs::path(a.path()).parent_path(), tmp.path);
    ASSERT_TRUE(a.write(scene, "/home/someone/maps/level.json")) << a.error();
    EXPECT_TRUE(a.error().empty());
    // Our own file is not a crash to recover from.
    EXPECT_FALSE(a.find());
    orphan(a, tmp, kDeadPid);
  }  // destroyed without discard(): the crash
  Autosave b(tmp.path.string());
  const auto found = b.find();
  ASSERT_TRUE(found) << b.error();
  EXPECT_EQ(found->file, (tmp.path / orphan_name(kDeadPid)).string());
  EXPECT_EQ(found->original_path, "/home/someone/maps/level.json");
  EXPECT_EQ(found->map_file, std::nullopt);
  EXPECT_EQ(found->pid, ::getpid());
  EXPECT_GE(found->time, std::chrono::floor<std::chrono::seconds>(before));
  EXPECT_LE(found->time, std::chrono::system_clock::now());
  EXPECT_EQ(found->time_text().size(), 19u);  // "YYYY-MM-DD HH:MM:SS"
  EXPECT_TRUE(same_scene(found->load(), scene));
  // The autosave is a scene file in its own right.
  EXPECT_TRUE(pl::load_scene(found->file).unknown_fields.contains("pathlab_autosave"));

  EXPECT_TRUE(found->discard());
  EXPECT_FALSE(fs::exists(found->file));
  EXPECT_TRUE(found->discard());  // already gone
  EXPECT_FALSE(b.find());
  EXPECT_TRUE(b.error().empty());
}

TEST(Autosave, EmbedsTheCellsOfAReferencedMap) {
  TempDir tmp("autosave_map_file");
  Scene scene = sample_scene();
  scene.map_file = "level.map";  // never written: recovery must not need it
  Autosave a(tmp.path.string());
  ASSERT_TRUE(a.write(scene, "/maps/level.json")) << a.error();
  const std::string text = pl::read_file(a.path());
  EXPECT_CONTAINS(text, "\"rows\"");
  EXPECT_EQ(text.find("\"file\""), std::string::npos) << text;
  orphan(a, tmp, kDeadPid);

  const auto found = Autosave(tmp.path.string()).find();
  ASSERT_TRUE(found);
  EXPECT_EQ(found->map_file, "level.map");
  const Scene back = found->load();
  EXPECT_EQ(back.map_file, "level.map");  // the reference is the document's again
  EXPECT_TRUE(same_scene(back, scene));
}

TEST(Autosave, SkipsFilesOfRunningProcesses) {
  TempDir tmp("autosave_running");
  Autosave a(tmp.path.string());
  ASSERT_TRUE(a.write(sample_scene(), ""));
  orphan(a, tmp, static_cast<int>(::getppid()));  // our parent is running: another instance
  Autosave b(tmp.path.string());
  EXPECT_FALSE(b.find());
  EXPECT_TRUE(b.error().empty());
  fs::rename(tmp.path / orphan_name(::getppid()), tmp.path / orphan_name(kDeadPid));
  const auto found = b.find();
  ASSERT_TRUE(found);
  EXPECT_EQ(found->original_path, "");
}

TEST(Autosave, AFileAtOurPathThatWeDidNotWriteIsAnOrphan) {
  // After a reboot a new session may get the pid of the one that crashed.
  TempDir tmp("autosave_pid_reuse");
  {
    Autosave crashed(tmp.path.string());
    ASSERT_TRUE(crashed.write(sample_scene(), "/a.json"));
  }
  Autosave now(tmp.path.string());
  now.discard();  // must not delete what it did not write
  EXPECT_TRUE(fs::exists(now.path()));
  const auto found = now.find();
  ASSERT_TRUE(found);
  EXPECT_EQ(found->file, now.path());
  EXPECT_EQ(found->original_path, "/a.json");
}

TEST(Autosave, ListsOrphansNewestFirst) {
  TempDir tmp("autosave_order");
  // Written by hand in the documented format, so the times differ without waiting.
  const std::vector<std::pair<int, long>> files = {
      {kDeadPid, 1700000000}, {kDeadPid + 1, 1800000000}, {kDeadPid + 2, 1750000000}};
  for (const auto& [pid, time] : files) {
    Scene s = sample_scene();
    s.unknown_fields["pathlab_autosave"] =
        R"({"original": "/doc)" + std::to_string(pid) + R"(.json", "map_file": null, "time": )" +
        std::to_string(time) + R"(, "pid": )" + std::to_string(pid) + "}";
    pl::save_scene(s, (tmp.path / orphan_name(pid)).string());
  }
  Autosave a(tmp.path.string());
  const auto all = a.find_all();
  ASSERT_EQ(all.size(), 3u) << a.error();
  EXPECT_EQ(all[0].pid, kDeadPid + 1);
  EXPECT_EQ(all[1].pid, kDeadPid + 2);
  EXPECT_EQ(all[2].pid, kDeadPid);
  EXPECT_EQ(all[2].original_path, "/doc" + std::to_string(kDeadPid) + ".json");
  EXPECT_EQ(a.find()->pid, kDeadPid + 1);
}

TEST(Autosave, BadFilesAreReportedAndLeftAlone) {
  TempDir tmp("autosave_bad");
  Scene plain = sample_scene();
  pl::save_scene(plain, (tmp.path / orphan_name(kDeadPid)).string());  // no autosave field
  pl::write_file_atomic((tmp.path / orphan_name(kDeadPid + 1)).string(), "{ not json");
  plain.unknown_fields["pathlab_autosave"] =
      R"({"original": null, "map_file": null, "time": "yesterday", "pid": 1})";
  pl::save_scene(plain, (tmp.path / orphan_name(kDeadPid + 2)).string());
  // Names that are not autosaves are not looked at.
  pl::write_file_atomic(tmp.file("autosave-12x.json"), "junk");
  pl::write_file_atomic(tmp.file(orphan_name(kDeadPid + 3) + ".tmp-abc123"), "junk");
  pl::write_file_atomic(tmp.file("autosave-0.json"), "junk");

  Autosave a(tmp.path.string());
  EXPECT_FALSE(a.find());
  EXPECT_CONTAINS(a.error(), orphan_name(kDeadPid) + ": not an autosave");
  EXPECT_CONTAINS(a.error(), orphan_name(kDeadPid + 1));
  EXPECT_CONTAINS(a.error(), orphan_name(kDeadPid + 2) + ": pathlab_autosave.time");
  EXPECT_EQ(a.error().find("12x"), std::string::npos);
  EXPECT_EQ(a.error().find("tmp-abc123"), std::string::npos);
  EXPECT_EQ(a.error().find("autosave-0.json"), std::string::npos);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(fs::exists(tmp.path / orphan_name(kDeadPid + i)));
}

TEST(Autosave, MissingDirectoryMeansNothingToRecover) {
  TempDir tmp("autosave_missing_dir");
  Autosave a((tmp.path / "not" / "yet").string());
  EXPECT_FALSE(a.find());
  EXPECT_TRUE(a.error().empty());
  // write() creates it.
  EXPECT_TRUE(a.write(sample_scene(), "")) << a.error();
  EXPECT_TRUE(fs::exists(a.path()));
}

TEST(Autosave, FailedWriteReportsAndIsRetriedAfterTheInterval) {
  TempDir tmp("autosave_write_fail");
  pl::write_file_atomic(tmp.file("plain_file"), "x");
  Autosave a((tmp.path / "plain_file").string(), 30s);  // a "directory" that is a file
  const auto t0 = Autosave::Clock::now();
  ASSERT_TRUE(a.due(t0, 7, true));
  EXPECT_FALSE(a.write(sample_scene(), "/x.json"));
  EXPECT_CONTAINS(a.error(), "autosave failed");
  EXPECT_FALSE(a.due(t0 + 1s, 7, true));  // not every frame
  EXPECT_TRUE(a.due(t0 + 30s, 7, true));  // but again, although the version is the same
}

TEST(Autosave, UpdateFollowsTheDocument) {
  TempDir tmp("autosave_update");
  Autosave a(tmp.path.string(), 30s);
  Document doc(sample_scene());
  const auto t0 = Autosave::Clock::now();
  EXPECT_TRUE(a.update(t0, doc, "/doc.json"));
  EXPECT_FALSE(fs::exists(a.path()));  // clean: nothing written

  ASSERT_TRUE(doc.set_cell(0, 0, 3));
  EXPECT_TRUE(a.update(t0 + 1s, doc, "/doc.json"));
  a.wait();  // update() only hands a snapshot to the writer thread
  ASSERT_TRUE(fs::exists(a.path()));
  auto cell_on_disk = [&](int x, int y) { return pl::load_scene(a.path()).map.at(x, y); };
  EXPECT_EQ(cell_on_disk(0, 0), 3);

  ASSERT_TRUE(doc.set_cell(1, 0, 4));
  EXPECT_TRUE(a.update(t0 + 10s, doc, "/doc.json"));
  a.wait();
  EXPECT_EQ(cell_on_disk(1, 0), 0);  // within the interval: not yet
  EXPECT_TRUE(a.update(t0 + 31s, doc, "/doc.json"));
  a.wait();
  EXPECT_EQ(cell_on_disk(1, 0), 4);

  // Undone back to the saved state: the autosave would only offer what the file has.
  doc.undo();
  doc.undo();
  ASSERT_FALSE(doc.dirty());
  EXPECT_TRUE(a.update(t0 + 32s, doc, "/doc.json"));
  EXPECT_FALSE(fs::exists(a.path()));

  doc.redo();
  EXPECT_TRUE(a.update(t0 + 70s, doc, "/doc.json"));
  a.wait();
  EXPECT_TRUE(fs::exists(a.path()));
  doc.mark_saved();
  EXPECT_TRUE(a.update(t0 + 71s, doc, "/doc.json"));
  EXPECT_FALSE(fs::exists(a.path()));
}

}  // namespace
