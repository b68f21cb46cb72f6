#include "editor/recent_files.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "core/io.hpp"
#include "editor/config_dir.hpp"

namespace pl::editor {

namespace fs = std::filesystem;

namespace {

// A list of ten paths is a few kilobytes; anything far larger is not our file.
constexpr std::size_t kMaxFileBytes = std::size_t(1) << 20;

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    unsigned min = 0;
    unsigned cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2, min = 0x80, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, min = 0x800, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, min = 0x10000, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    // Overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8.
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

// Whether a line of the list file can hold s.
bool storable(std::string_view s) {
  return !s.empty() && s.find_first_of(std::string_view("\n\r\0", 3)) == std::string_view::npos &&
         valid_utf8(s);
}

}  // namespace

std::string normal_path(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = fs::path(path);
  // weakly_canonical resolves links through the part of the path that exists, so a file and a
  // link to it are one entry, and a path that no longer exists still has a stable form.
  fs::path c = fs::weakly_canonical(p, ec);
  return (ec ? p.lexically_normal() : c).string();
}

std::string RecentFiles::default_path() {
  return (fs::path(config_dir()) / "recent_files.txt").string();
}

RecentFiles::RecentFiles(std::size_t max) : max_(std::max<std::size_t>(max, 1)) {}

void RecentFiles::set_max(std::size_t max) {
  max_ = std::max<std::size_t>(max, 1);
  if (paths_.size() > max_) paths_.resize(max_);
}

bool RecentFiles::add(const std::string& path) {
  if (!storable(path)) return false;
  std::string p = normal_path(path);
  if (!storable(p)) return false;
  std::erase(paths_, p);
  paths_.insert(paths_.begin(), std::move(p));
  if (paths_.size() > max_) paths_.resize(max_);
  return true;
}

bool RecentFiles::remove(const std::string& path) {
  return std::erase(paths_, normal_path(path)) > 0;
}

std::size_t RecentFiles::prune() {
  const std::size_t before = paths_.size();
  std::erase_if(paths_, [](const std::string& p) {
    std::error_code ec;
    // status() reports a missing file as not_found without an error; any other error means
    // we could not tell, and the entry stays.
    return fs::status(p, ec).type() == fs::file_type::not_found;
  });
  return before - paths_.size();
}

bool RecentFiles::load(const std::string& file) {
  paths_.clear();
  error_.clear();
  std::error_code ec;
  if (fs::status(file, ec).type() == fs::file_type::not_found) return true;

  std::string text;
  try {
    text = read_file(file, kMaxFileBytes);
  } catch (const std::exception& e) {
    error_ = e.what();
    return false;
  }
  std::vector<std::string> loaded;
  std::size_t line_no = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // edited on Windows
    if (line.empty()) continue;
    const std::string where = file + ":" + std::to_string(line_no) + ": ";
    if (!storable(line)) {
      error_ = where + "not a path (binary data or not UTF-8)";
      return false;
    }
    if (!fs::path(line).is_absolute()) {
      error_ = where + "not an absolute path";
      return false;
    }
    loaded.emplace_back(line);
  }
  // Added oldest first so each lands in front of the older ones; add() also merges spellings
  // that now resolve to the same file and enforces max().
  for (auto it = loaded.rbegin(); it != loaded.rend(); ++it) add(*it);
  return true;
}

bool RecentFiles::save(const std::string& file) {
  error_.clear();
  std::string text;
  for (const std::string& p : paths_) text += p + '\n';
  std::error_code ec;
  if (fs::path parent = fs::path(file).parent_path(); !parent.empty())
    fs::create_directories(parent, ec);  // a failure shows in the write's own error
  try {
    write_file_atomic(file, text);
  } catch (const std::exception& e) {
    error_ = e.what();
    return false;
  }
  return true;
}

}  // namespace pl::editor
