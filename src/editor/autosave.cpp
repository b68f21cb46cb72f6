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
    : dir_(std::move(dir)),
      path_((fs::path(dir_) / (kPrefix + std::to_string(::getpid()) + kSuffix)).string()),
      interval_(interval),
      pid_(static_cast<int>(::getpid())) {}

Autosave::~Autosave() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
}

std::string Autosave::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

bool Autosave::due(Clock::time_point now, std::uint64_t document_version, bool dirty) {
  if (!dirty) return false;
  std::lock_guard lock(mutex_);
  if (version_ && *version_ == document_version) return false;
  if (last_ && now - *last_ < interval_) return false;
  last_ = now;
  version_ = document_version;
  return true;
}

bool Autosave::write(const Scene& scene, const std::string& original_path) {
  {
    std::lock_guard lock(mutex_);
    error_.clear();
  }
  return write_now(scene, original_path);
}

void Autosave::write_async(Scene snapshot, const std::string& original_path) {
  {
    std::lock_guard lock(mutex_);
    job_ = Job{std::move(snapshot), original_path};
    if (!worker_.joinable()) worker_ = std::thread([this] { run_worker(); });
  }
  changed_.notify_all();
}

void Autosave::wait() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !job_ && !writing_; });
}

void Autosave::run_worker() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stop_ || job_; });
    if (!job_) return;  // stopping, nothing left to write
    Job job = std::move(*job_);
    job_.reset();
    writing_ = true;
    error_.clear();
    lock.unlock();
    write_now(job.scene, job.original_path);
    lock.lock();
    writing_ = false;
    changed_.notify_all();
  }
}

bool Autosave::write_now(const Scene& scene, const std::string& original_path) {
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
    std::lock_guard lock(mutex_);
    on_disk_ = true;
    return true;
  } catch (const std::exception& e) {
    std::lock_guard lock(mutex_);
    error_ = std::string("autosave failed: ") + e.what();
    version_.reset();  // so the next due() after the interval tries again
    return false;
  }
}

bool Autosave::update(Clock::time_point now, const Document& doc,
                      const std::string& original_path) {
  if (!doc.dirty()) {
    bool anything = false;
    {
      std::lock_guard lock(mutex_);
      anything = on_disk_ || version_ || job_ || writing_;
    }
    if (anything) discard();
    return true;
  }
  if (due(now, doc.version(), true)) write_async(doc.scene(), original_path);  // the snapshot
  std::lock_guard lock(mutex_);
  return error_.empty();
}

std::vector<Recovery> Autosave::find_all() {
  std::unique_lock lock(mutex_);
  // A write in progress would rename our file into place behind our back.
  changed_.wait(lock, [&] { return !job_ && !writing_; });
  error_.clear();
  const bool ours_on_disk = on_disk_;
  lock.unlock();
  std::string errors;
  std::vector<Recovery> out;
  std::error_code ec;
  fs::directory_iterator it(dir_, ec);
  if (ec) {
    if (ec != std::errc::no_such_file_or_directory) {
      lock.lock();
      error_ = dir_ + ": " + ec.message();
    }
    return out;
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const int pid = pid_of(name);
    if (pid == 0) continue;
    // Our own file is ours only if we wrote it; otherwise a session before a reboot had our
    // pid and its file is an orphan like any other.
    if (pid == pid_ ? ours_on_disk : process_alive(pid)) continue;
    try {
      out.push_back(read_recovery(it->path().string(), dir_));
    } catch (const std::exception& e) {
      if (!errors.empty()) errors += "; ";
      errors += e.what();
    }
  }
  if (ec) {
    if (!errors.empty()) errors += "; ";
    errors += dir_ + ": " + ec.message();
  }
  lock.lock();
  error_ = std::move(errors);
  lock.unlock();
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
  std::unique_lock lock(mutex_);
  job_.reset();  // a snapshot not yet written never will be
  changed_.wait(lock, [&] { return !writing_; });
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
