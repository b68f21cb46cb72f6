// Helpers shared by every file format: bounded whole-file reads, atomic writes, and load_any.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "core/io.hpp"
#include "core/io_detail.hpp"

namespace pl {

namespace fs = std::filesystem;

namespace detail {

std::string printable(std::string_view s, size_t max_len) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (out.size() >= max_len) {
      out += "...";
      break;
    }
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

std::string quote_char(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", u);
  return buf;
}

std::string lower_extension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

std::string parent_dir(const std::string& path) { return fs::path(path).parent_path().string(); }

}  // namespace detail

std::string read_file(const std::string& path, size_t max_bytes) {
  // stat first: a FIFO, a terminal or /dev/zero would block or never end, and a scene file
  // can name any path in "map": {"file": ...}.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError(path + ": cannot read: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InputError(path + ": cannot read: not a regular file");
  if (static_cast<unsigned long long>(st.st_size) > max_bytes)
    throw InputError(path + ": file is too large (" + std::to_string(st.st_size) +
                     " bytes, the limit is " + std::to_string(max_bytes) + ")");

  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw InputError(path + ": cannot read: " + std::strerror(errno));
  std::string out;
  building(path, "the file's text (" + std::to_string(st.st_size) + " bytes)",
                   [&] { out.resize(static_cast<size_t>(st.st_size)); });
  size_t got = out.empty() ? 0 : std::fread(out.data(), 1, out.size(), f.get());
  out.resize(got);
  // The file may have grown since stat: read on, but never past the limit.
  char buf[65536];
  while (true) {
    size_t n = std::fread(buf, 1, sizeof buf, f.get());
    if (n == 0) break;
    if (out.size() + n > max_bytes)
      throw InputError(path + ": file is too large (the limit is " + std::to_string(max_bytes) +
                       " bytes)");
    out.append(buf, n);
  }
  if (std::ferror(f.get())) throw InputError(path + ": read error: " + std::strerror(errno));
  return out;
}

void write_file_atomic(const std::string& path, std::string_view content) {
  if (path.empty()) throw InputError("cannot write a file with an empty name");
  // The temporary sits next to the target so rename() stays within one file system and is
  // atomic. open() with 0666 lets the umask decide the permissions, as for a plain create.
  static std::atomic<unsigned> counter{0};
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    auto seed = static_cast<unsigned long long>(
                    std::chrono::steady_clock::now().time_since_epoch().count()) ^
                (static_cast<unsigned long long>(::getpid()) << 20) ^ counter.fetch_add(1);
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".tmp-%06llx", seed & 0xffffffULL);
    tmp = path + suffix;
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) throw InputError(path + ": cannot write: " + std::strerror(errno));

  auto fail = [&](const char* what) {
    int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    throw InputError(path + ": " + what + ": " + std::strerror(err));
  };
  // Keep the permissions of a file we replace.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) (void)::fchmod(fd, st.st_mode & 07777);

  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  // Data on disk before the rename, so a crash leaves the old file or the new one.
  if (::fsync(fd) != 0) fail("cannot write");
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw InputError(path + ": cannot write: " + std::strerror(err));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw InputError(path + ": cannot replace the file: " + std::strerror(err));
  }
}

// A bare .map opens as a scene whose map_file is the map's basename: saving that scene next
// to the map then references the map instead of copying it inline (the caller saves the .map
// itself, as for any scene with map_file set). A PNG has no text form to reference, so its
// map is inline.
Scene load_any(const std::string& path) {
  const std::string ext = detail::lower_extension(path);
  if (ext == ".json" || ext == ".scene") return load_scene(path);
  Scene s;
  if (ext == ".png") {
    s.map = load_png(path);
    return s;
  }
  s.map = load_map(path);
  s.map_file = fs::path(path).filename().string();
  return s;
}

}  // namespace pl
