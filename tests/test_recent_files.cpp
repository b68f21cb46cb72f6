// The recent-files list: most recent first, capped, one entry per file however it is spelt,
// pruned of files that are gone, and a list file that round-trips and, when it is bad, gives an
// empty list and a message instead of an exception. Also config_dir()'s environment rules.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/io.hpp"
#include "editor/config_dir.hpp"
#include "editor/recent_files.hpp"
#include "io_test_util.hpp"

namespace fs = std::filesystem;
using pl::editor::normal_path;
using pl::editor::RecentFiles;
using pl::iotest::TempDir;

namespace {

void touch(const fs::path& p) {
  std::ofstream(p) << "x";
}

// Sets an environment variable for the scope of a test and restores it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_.c_str(), old_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

TEST(RecentFiles, AddPutsNewestFirstAndKeepsAtMostMax) {
  TempDir tmp("recent_order");
  RecentFiles r(3);
  for (const char* n : {"a.json", "b.map", "c.scen", "d.png"}) EXPECT_TRUE(r.add(tmp.file(n)));
  EXPECT_EQ(r.paths(), (std::vector<std::string>{normal_path(tmp.file("d.png")),
                                                 normal_path(tmp.file("c.scen")),
                                                 normal_path(tmp.file("b.map"))}));
  // Adding a listed path moves it to the front instead of listing it twice.
  r.add(tmp.file("b.map"));
  EXPECT_EQ(r.paths(), (std::vector<std::string>{normal_path(tmp.file("b.map")),
                                                 normal_path(tmp.file("d.png")),
                                                 normal_path(tmp.file("c.scen"))}));
  r.set_max(1);
  EXPECT_EQ(r.paths(), std::vector<std::string>{normal_path(tmp.file("b.map"))});
  EXPECT_EQ(RecentFiles().max(), 10u);
}

TEST(RecentFiles, OneEntryPerFileHoweverItIsSpelt) {
  TempDir tmp("recent_spelling");
  fs::create_directories(tmp.path / "sub");
  touch(tmp.path / "scene.json");
  fs::create_symlink(tmp.path / "scene.json", tmp.path / "link.json");
  RecentFiles r;
  r.add(tmp.file("scene.json"));
  r.add((tmp.path / "sub" / ".." / "." / "scene.json").string());
  r.add(tmp.file("link.json"));
  r.add(fs::relative(tmp.path / "scene.json").string());
  ASSERT_EQ(r.paths().size(), 1u);
  EXPECT_TRUE(fs::path(r.paths()[0]).is_absolute());
  EXPECT_TRUE(fs::equivalent(r.paths()[0], tmp.path / "scene.json"));
  EXPECT_TRUE(r.remove((tmp.path / "sub" / ".." / "link.json").string()));
  EXPECT_TRUE(r.empty());
  EXPECT_FALSE(r.remove(tmp.file("scene.json")));
}

TEST(RecentFiles, RefusesPathsALineCannotHold) {
  RecentFiles r;
  EXPECT_FALSE(r.add(""));
  EXPECT_FALSE(r.add("/tmp/two\nlines.json"));
  EXPECT_FALSE(r.add("/tmp/cr\r.json"));
  EXPECT_FALSE(r.add(std::string("/tmp/nul\0.json", 15)));
  EXPECT_FALSE(r.add("/tmp/latin1-\xe9.json"));
  EXPECT_TRUE(r.empty());
}

TEST(RecentFiles, PruneDropsOnlyFilesThatAreGone) {
  TempDir tmp("recent_prune");
  touch(tmp.path / "kept.json");
  touch(tmp.path / "gone.json");
  RecentFiles r;
  r.add(tmp.file("kept.json"));
  r.add(tmp.file("gone.json"));
  r.add(tmp.file("never.map"));
  fs::remove(tmp.path / "gone.json");
  EXPECT_EQ(r.prune(), 2u);
  EXPECT_EQ(r.paths(), std::vector<std::string>{normal_path(tmp.file("kept.json"))});
  EXPECT_EQ(r.prune(), 0u);
}

TEST(RecentFiles, SavesAndLoadsTheSameList) {
  TempDir tmp("recent_roundtrip");
  RecentFiles r(4);
  for (const char* n : {"a.json", "caf\xc3\xa9 map.map", "with space.scen"}) r.add(tmp.file(n));
  // The directory does not exist yet: save() creates it.
  const std::string file = (tmp.path / "config" / "recent.txt").string();
  ASSERT_TRUE(r.save(file)) << r.error();
  EXPECT_TRUE(r.error().empty());
  std::string expected;
  for (const auto& p : r.paths()) expected += p + "\n";
  EXPECT_EQ(pl::read_file(file), expected);

  RecentFiles back(4);
  back.add(tmp.file("stale.json"));  // replaced, not merged
  ASSERT_TRUE(back.load(file)) << back.error();
  EXPECT_EQ(back.paths(), r.paths());
  EXPECT_TRUE(back.error().empty());
}

TEST(RecentFiles, LoadMergesDuplicatesKeepsOrderAndCaps) {
  TempDir tmp("recent_load");
  const std::string file = tmp.file("recent.txt");
  std::string text;
  for (int i = 0; i < 15; ++i) text += tmp.file("f" + std::to_string(i) + ".json") + "\r\n";
  text = tmp.file("f3.json") + "\n\n" + text;  // a duplicate of a later line, a blank line
  pl::write_file_atomic(file, text);
  RecentFiles r;
  ASSERT_TRUE(r.load(file)) << r.error();
  ASSERT_EQ(r.paths().size(), 10u);
  // The first occurrence is the most recent; the later duplicate goes.
  EXPECT_EQ(r.paths()[0], normal_path(tmp.file("f3.json")));
  EXPECT_EQ(r.paths()[1], normal_path(tmp.file("f0.json")));
  EXPECT_EQ(r.paths()[3], normal_path(tmp.file("f2.json")));
  EXPECT_EQ(r.paths()[4], normal_path(tmp.file("f4.json")));
  EXPECT_EQ(r.paths()[9], normal_path(tmp.file("f9.json")));
}

TEST(RecentFiles, MissingFileIsAnEmptyListWithoutError) {
  TempDir tmp("recent_missing");
  RecentFiles r;
  r.add(tmp.file("x.json"));
  EXPECT_TRUE(r.load(tmp.file("nothing.txt")));
  EXPECT_TRUE(r.empty());
  EXPECT_TRUE(r.error().empty());
}

TEST(RecentFiles, BadFileGivesAnEmptyListAndAMessage) {
  TempDir tmp("recent_bad");
  const std::string file = tmp.file("recent.txt");
  const std::string good = tmp.file("ok.json") + "\n";
  struct Case {
    std::string content, message;
  };
  const std::vector<Case> cases = {
      {good + std::string("/bin\0ary\n", 9), "recent.txt:2: not a path"},
      {good + "/tmp/latin1-\xe9.json\n", "recent.txt:2: not a path"},
      {good + "relative/path.json\n", "recent.txt:2: not an absolute path"},
      {std::string(std::size_t(2) << 20, '/'), "recent.txt"},  // far larger than a list
  };
  for (const Case& c : cases) {
    pl::write_file_atomic(file, c.content);
    RecentFiles r;
    r.add(tmp.file("before.json"));
    EXPECT_FALSE(r.load(file));
    EXPECT_TRUE(r.empty());
    EXPECT_CONTAINS(r.error(), c.message);
  }
  // A directory where the file should be cannot be read.
  fs::create_directories(tmp.path / "dir.txt");
  RecentFiles r;
  EXPECT_FALSE(r.load(tmp.file("dir.txt")));
  EXPECT_TRUE(r.empty());
  EXPECT_CONTAINS(r.error(), "dir.txt");
}

TEST(RecentFiles, FailedSaveReportsInsteadOfThrowing) {
  TempDir tmp("recent_save_fail");
  touch(tmp.path / "file");
  RecentFiles r;
  r.add(tmp.file("a.json"));
  // The parent "directory" is a regular file: no write can succeed.
  EXPECT_FALSE(r.save((tmp.path / "file" / "recent.txt").string()));
  EXPECT_CONTAINS(r.error(), "recent.txt");
  EXPECT_EQ(r.paths().size(), 1u);
}

TEST(RecentFiles, ConfigDirFollowsXdgThenHome) {
  TempDir tmp("recent_config_dir");
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", tmp.path.c_str());
    EXPECT_EQ(pl::editor::config_dir(), (tmp.path / "pathlab").string());
    EXPECT_TRUE(fs::is_directory(tmp.path / "pathlab"));
    EXPECT_EQ(RecentFiles::default_path(), (tmp.path / "pathlab" / "recent_files.txt").string());
  }
  const std::string home = (tmp.path / "home").string();
  ScopedEnv home_env("HOME", home.c_str());
  for (const char* xdg_value : {static_cast<const char*>(nullptr), "", "relative/dir"}) {
    ScopedEnv xdg("XDG_CONFIG_HOME", xdg_value);
    EXPECT_EQ(pl::editor::config_dir(), (tmp.path / "home" / ".config" / "pathlab").string());
  }
  EXPECT_TRUE(fs::is_directory(tmp.path / "home" / ".config" / "pathlab"));
  ScopedEnv xdg("XDG_CONFIG_HOME", nullptr);
  ScopedEnv no_home("HOME", nullptr);
  EXPECT_EQ(pl::editor::config_dir(), ".");
}

}  // namespace
