#include "editor/autosave.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <ctime>
#include <exception>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>
#include <utility>

#include "core/error.hpp"
#include "core/io.hpp"

namespace pl::editor {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

constexpr const char* kField = "pathlab_autosave";
constexpr const char* kPrefix = "autosave-";
constexpr const char* kSuffix = ".json";

// The writer's pid from "autosave-<pid>.json"; 0 for any other name (temporaries of an
// interrupted write, the user's own files).
int pid_of(const std::string& name) {
  const std::string_view prefix(kPrefix), suffix(kSuffix);
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) ||
      !name.ends_with(suffix))
    return 0;
  const char* first = name.data() + prefix.size();
  const char* last = name.data() + name.size() - suffix.size();
  int pid = 0;
  auto [end, ec] = std::from_chars(first, last, pid);
  return ec == std::errc() && end == last && pid > 0 ? pid : 0;
}

// EPERM: the process exists but belongs to someone else. A pid reused by an unrelated process
// also looks alive; its orphan is then offered once that process ends, which loses nothing.
bool process_alive(int pid) {
  return ::kill(pid, 0) == 0 || errno == EPERM;
}

Recovery read_recovery(const std::string& file, const std::string& dir) {
  Recovery r;
  r.file = file;
  auto scene = std::make_shared<Scene>(parse_scene(read_file(file), file, dir));
  auto it = scene->unknown_fields.find(kField);
  if (it == scene->unknown_fields.end())
    throw InputError(file, 0, std::string("not an autosave (no \"") + kField + "\" field)");
  const Json meta = Json::parse(it->second, nullptr, false);
  auto bad = [&](const char* what) {
    return InputError(file, 0, std::string(kField) + "." + what + ": missing or of the wrong type");
  };
  if (!meta.is_object()) throw bad("(object)");
  const auto original = meta.find("original");
  if (original == meta.end() || !(original->is_string() || original->is_null()))
    throw bad("original");
  if (original->is_string()) r.original_path = original->get<std::string>();
  const auto map_file = meta.find("map_file");
  if (map_file == meta.end() || !(map_file->is_string() || map_file->is_null()))
    throw bad("map_file");
  if (map_file->is_string()) r.map_file = map_file->get<std::string>();
  const auto time = meta.find("time");
  if (time == meta.end() || !time->is_number_integer()) throw bad("time");
  r.time = std::chrono::system_clock::time_point(std::chrono::seconds(time->get<std::int64_t>()));
  const auto pid = meta.find("pid");
  if (pid == meta.end() || !pid->is_number_integer()) throw bad("pid");
  r.pid = pid->get<int>();
  r.scene = std::move(scene);
  return r;
}

}  // namespace

Scene Recovery::load() const {
  if (!scene) return {};
  Scene s = *scene;
  s.unknown_fields.erase(kField);
  s.map_file = map_file;
  return s;
}

std::string Recovery::time_text() const {
  const std::time_t t = std::chrono::system_clock::to_time_t(time);
  std::tm tm{};
  char buf[32] = "";
  if (::localtime_r(&t, &tm)) std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

bool Recovery::discard(std::string* error) const {
  std::error_code ec;
  fs::remove(file, ec);  // false without an error when the file is already gone
  if (ec && error) *error = file + ": cannot delete: " + ec.message();
  return !ec;
}

Autosave::Autosave(std::string dir, std::chrono::duration<double> interval)
    : dir_(std::move(dir)), interval_(interval), pid_(static_cast<int>(::getpid())) {
  path_ = (fs::path(dir_) / (kPrefix + std::to_string(pid_) + kSuffix)).string();
}

bool Autosave::due(Clock::time_point now, std::uint64_t document_version, bool dirty) {
  if (!dirty) return false;
  if (version_ && *version_ == document_version) return false;
  if (last_ && now - *last_ < interval_) return false;
  last_ = now;
  version_ = document_version;
  return true;
}

bool Autosave::write(const Scene& scene, const std::string& original_path) {
  error_.clear();
  try {
    // A copy, because the autosave differs from the document in two ways: the map is inline
    // (map_file cleared) and it carries the recovery facts as an extra top-level field.
    Scene copy = scene;
    copy.map_file.reset();
    Json meta = Json::object();
    meta["original"] = original_path.empty() ? Json() : Json(original_path);
    meta["map_file"] = scene.map_file ? Json(*scene.map_file) : Json();
    meta["time"] = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
    meta["pid"] = pid_;
    // replace: a path that is not UTF-8 must not stop the autosave of the scene itself.
    copy.unknown_fields[kField] = meta.dump(-1, ' ', false, Json::error_handler_t::replace);
    const std::string text = format_scene(copy);
    std::error_code ec;
    fs::create_directories(dir_, ec);  // a failure shows in the write's own error
    write_file_atomic(path_, text);
    on_disk_ = true;
    return true;
  } catch (const std::exception& e) {
    error_ = std::string("autosave failed: ") + e.what();
    version_.reset();  // so the next due() after the interval tries again
    return false;
  }
}

bool Autosave::update(Clock::time_point now, const Document& doc,
                      const std::string& original_path) {
  if (!doc.dirty()) {
    if (on_disk_ || version_) discard();
    return true;
  }
  if (!due(now, doc.version(), true)) return true;
  return write(doc.scene(), original_path);
}

std::vector<Recovery> Autosave::find_all() {
  error_.clear();
  std::vector<Recovery> out;
  std::error_code ec;
  fs::directory_iterator it(dir_, ec);
  if (ec) {
    if (ec != std::errc::no_such_file_or_directory) error_ = dir_ + ": " + ec.message();
    return out;
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const int pid = pid_of(name);
    if (pid == 0) continue;
    // Our own file is ours only if we wrote it; otherwise a session before a reboot had our
    // pid and its file is an orphan like any other.
    if (pid == pid_ ? on_disk_ : process_alive(pid)) continue;
    try {
      out.push_back(read_recovery(it->path().string(), dir_));
    } catch (const std::exception& e) {
      if (!error_.empty()) error_ += "; ";
      error_ += e.what();
    }
  }
  if (ec) {
    if (!error_.empty()) error_ += "; ";
    error_ += dir_ + ": " + ec.message();
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Recovery& a, const Recovery& b) { return a.time > b.time; });
  return out;
}

std::optional<Recovery> Autosave::find() {
  std::vector<Recovery> all = find_all();
  if (all.empty()) return std::nullopt;
  return std::move(all.front());
}

void Autosave::discard() {
  error_.clear();
  version_.reset();
  // Only a file we wrote: one at our path that we did not write is another session's orphan.
  if (!on_disk_) return;
  std::error_code ec;
  fs::remove(path_, ec);
  if (ec) {
    error_ = path_ + ": cannot delete the autosave: " + ec.message();
    return;
  }
  on_disk_ = false;
}

}  // namespace pl::editor
