// Helpers shared by the file-format tests (test_io_map, test_io_png, test_io_scen, test_io_scene):
// the InputError message of a call, EXPECT_CONTAINS, a scratch directory, random maps and the
// benchmark files under ../shared/data.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "core/io.hpp"

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << "in: " << (haystack)

namespace pl::iotest {

// The message of the InputError thrown by f, or "" (and a test failure) if none is thrown.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << "messages are one line: " << m;
    return m;
  }
  ADD_FAILURE() << "expected an InputError";
  return {};
}

// A fresh, empty directory named after tag and the process id, removed again at scope exit.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& tag) {
    path = std::filesystem::temp_directory_path() / ("pathlab_test_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path / name).string(); }
};

// A map of 1..max_side cells a side, each cell any terrain of pal.
inline GridMap random_map(std::mt19937& rng, const Palette& pal, int max_side) {
  std::uniform_int_distribution<int> side(1, max_side), terr(0, pal.size() - 1);
  GridMap m(side(rng), side(rng), 0, pal);
  for (int y = 0; y < m.height(); ++y)
    for (int x = 0; x < m.width(); ++x) m.set(x, y, static_cast<TerrainId>(terr(rng)));
  return m;
}

// Every file with extension ext (".map", ".scen") under ../shared/data, sorted; none if it is absent.
inline std::vector<std::filesystem::path> shared_files(const std::string& ext) {
  std::vector<std::filesystem::path> out;
  std::filesystem::path root = std::filesystem::path(PATHLAB_SHARED_DIR) / "data";
  if (!std::filesystem::exists(root)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace pl::iotest
