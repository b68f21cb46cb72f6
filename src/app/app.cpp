#include "app/app.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <filesystem>
#include <thread>

#include "core/error.hpp"
#include "core/path_check.hpp"
#include "core/placement.hpp"
#include "core/search.hpp"
#include "viz/timeline.hpp"

namespace pl::app {

namespace fs = std::filesystem;

namespace {
const Registry* g_registry = nullptr;
}  // namespace

const Registry& registry() { return g_registry ? *g_registry : Registry::builtin(); }
void use_registry(const Registry& r) { g_registry = &r; }

// ---- Run

namespace {
// A cursor over `trace` at its last frame: what a view shows when a run ends.
std::unique_ptr<TraceCursor> at_last_frame(const Trace& trace) {
  auto cursor = std::make_unique<TraceCursor>(trace);
  cursor->seek(cursor->last_frame());
  return cursor;
}
}  // namespace

Run::Run(const Scene& scene, std::string planner, std::map<std::string, std::string> params,
         int agent, bool record, std::unique_ptr<Planner> reuse)
    : scene_(scene),
      planner_(std::move(planner)),
      params_(std::move(params)),
      agent_(agent),
      planner_obj_(std::move(reuse)) {
  worker_ = std::thread([this, record] {
    try {
      if (!planner_obj_) planner_obj_ = registry().create(planner_, params_);
      Planner* p = planner_obj_.get();
      TraceRecorder recorder;
      RunContext ctx;
      ctx.observer = record ? &recorder : nullptr;
      ctx.cancel = &cancel_;
      ctx.progress = &progress_;
      const Agent a = agent_ >= 0 && agent_ < int(scene_.agents.size())
                          ? scene_.agents[std::size_t(agent_)]
                          : Agent{};
      const Query q = Query::from_agent(scene_, a);
      result = p->plan(scene_, q, ctx);
      trace = std::make_unique<Trace>(recorder.take());
      // A cancelled run's result is not shown: no need to get it ready.
      if (record && !cancel_.load(std::memory_order_relaxed)) {
        cursor = at_last_frame(*trace);  // the Trace stays where it is
        spare = BackgroundSeek::make_spare(*cursor);
        search = std::make_unique<SearchTexture>();
        if (!search->prepare(*trace, 0, scene_.map.width(), scene_.map.height())) search.reset();
      }
      // Whether the agent can drive the path (its size and terrain), for the compare table.
      if (result.found)
        path_problem = result.pieces.empty()
                           ? pl::path_problem(scene_.map, q.capability, q.size, [&] {
                               std::vector<Vec2> pts;
                               for (const Pose& pt : result.points) pts.push_back(pt.position());
                               return pts;
                             }())
                           : pl::path_problem(scene_.map, q.capability, q.size, result.pieces);
    } catch (const std::exception& e) {
      error = e.what();
    }
    progress_.store(1.0f, std::memory_order_relaxed);
    done_.store(true, std::memory_order_release);
  });
}

Run::~Run() {
  cancel();
  join();
}

void Run::join() {
  if (worker_.joinable()) worker_.join();
}

std::unique_ptr<Planner> Run::take_planner() {
  join();
  if (cancel_.load(std::memory_order_relaxed) || !error.empty() || result.cancelled) return nullptr;
  return std::move(planner_obj_);
}

// ---- View

void View::select_planner(const std::string& name) {
  const PlannerInfo* info = registry().find(name);
  if (!info) info = &registry().all().front();
  planner = info->name;
  params.clear();
  for (const ParamDesc& d : info->params) params[d.name] = d.default_value;
}

std::size_t View::frame_wanted() const {
  if (!cursor) return 0;
  if (!seek_job.busy()) return cursor->frame();
  return seek_job.wanted().value_or(seek_job.target());
}

void View::take(Run& finished, std::uint64_t doc_version) {
  finished.join();
  keep_planner(finished);
  seek_job.reset();
  cursor.reset();
  prepared_search.reset();
  path_problem.clear();
  if (!finished.error.empty()) {
    result = {};
    result.message = finished.error;
    trace.reset();
  } else {
    result = std::move(finished.result);
    path_problem = std::move(finished.path_problem);
    trace = std::move(finished.trace);
    cursor = std::move(finished.cursor);
    prepared_search = std::move(finished.search);
    if (!cursor) cursor = at_last_frame(*trace);
    seek_job.adopt_spare(std::move(finished.spare));
  }
  has_run = true;
  shown_planner = finished.planner();
  shown_params = finished.params();
  shown_agent = finished.agent();
  shown_width = finished.scene().map.width();
  shown_height = finished.scene().map.height();
  shown_doc_version = doc_version;
  ++trace_generation;
  search_key = {};
}

void View::keep_planner(Run& finished) {
  kept_planner = finished.take_planner();
  kept_name = finished.planner();
  kept_params = finished.params();
}

std::unique_ptr<Planner> View::reusable_planner() {
  if (kept_planner && (kept_name != planner || kept_params != params)) kept_planner.reset();
  return std::move(kept_planner);
}

void View::clear_run() {
  run.reset();
  kept_planner.reset();
  seek_job.reset();
  cursor.reset();
  trace.reset();
  result = {};
  path_problem.clear();
  has_run = false;
  shown_planner.clear();
  ++trace_generation;
  search_key = {};
}

// ---- App

App::App() {
  ui.layers.fill(true);
  views.list.push_back(std::make_unique<View>());
  views.list.back()->select_planner("astar");
}

void App::select_agent(int i) {
  if (i < 0 || i >= int(scene().agents.size())) return;
  agent = i;
  if (views.size() == 1) views[0]->agent = i;
}

CapabilityMask App::agent_capability() const {
  const Scene& s = scene();
  const Agent a = agent >= 0 && agent < int(s.agents.size()) ? s.agents[std::size_t(agent)] : Agent{};
  return s.capability_of(a);
}

// What opening a file reads, before anything of the app changes (a worker thread may do it).
struct LoadedFile {
  Scene s;
  std::optional<Scenario> scen;
  std::string path, ext, map_path, scen_path, note;
};

struct BackgroundLoad {
  std::string path;
  Stopwatch clock;
  std::atomic<bool> done{false};
  std::optional<LoadedFile> file;  // set before done, when reading worked
  std::string error;               // set before done, when it did not
};

namespace {

// Reads `path` (throws InputError and friends): touches nothing of the app.
LoadedFile read_file(const std::string& path) {
  LoadedFile f;
  f.path = path;
  Scene& s = f.s;
  std::optional<Scenario>& scen = f.scen;
  std::string &map_path = f.map_path, &scen_path = f.scen_path, &note = f.note;
  const std::string ext = fs::path(path).extension().string();
  f.ext = ext;
  if (ext == ".scen") {
    Scenario sc = load_scen(path);
    if (sc.problems.empty()) throw InputError(path + ": the scenario has no problems");
    map_path = resolve_scen_map(path, sc.problems.front());
    s.map = load_map(map_path);
    check_scen_against_map(sc, s.map, path);
    s.map_file = fs::path(map_path).filename().string();
    scen = std::move(sc);
    scen_path = path;
  } else {
    s = load_any(path);
    if (s.map_file) map_path = (fs::path(path).parent_path() / *s.map_file).string();
    if (ext == ".map") {
      // A MovingAI map with its scenario beside it (x.map.scen, or x.scen): its problems.
      for (const std::string& cand : {path + ".scen", fs::path(path).replace_extension(".scen").string()}) {
        std::error_code ec;
        if (!fs::is_regular_file(cand, ec)) continue;
        try {
          Scenario sc = load_scen(cand);
          check_scen_against_map(sc, s.map, cand);
          if (sc.problems.empty()) continue;
          scen = std::move(sc);
          scen_path = cand;
          note = " with its scenario " + fs::path(cand).filename().string();
        } catch (const InputError& e) {
          note = " (its scenario was not used: " + std::string(e.what()) + ")";
        }
        break;
      }
    }
    // A map that came without an agent (a bare .map or PNG) gets one whose start and goal
    // are far apart in the largest region it can cross, so the first search is a real one.
    if (s.agents.empty() && !scen && ext != ".json" && ext != ".scene") {
      Agent a;
      if (const auto p = place_far_apart(s.map, s.capability_of(a))) {
        a.start = {p->start.x + 0.5, p->start.y + 0.5, 0};
        a.goal = {p->goal.x + 0.5, p->goal.y + 0.5, 0};
        note = " (start and goal placed far apart in the largest open region)";
      } else {
        note = " (no cell of the map is open to an agent)";
      }
      s.agents.push_back(a);
    }
  }
  return f;
}

}  // namespace

bool App::load(const std::string& path) {
  try {
    adopt(read_file(path));
    return true;
  } catch (const std::exception& e) {
    document.load_error = e.what();  // the current document stays as it was
    return false;
  }
}

void App::load_in_background(const std::string& path) {
  auto job = std::make_shared<BackgroundLoad>();
  job->path = path;
  background_load = job;
  document.status_message = "opening " + path + " ...";
  // The thread owns a reference: Cancel drops the app's, and what it reads is thrown away.
  std::thread([job] {
    try {
      job->file = read_file(job->path);
    } catch (const std::bad_alloc&) {
      job->error = job->path + ": out of memory while opening it";
    } catch (const std::exception& e) {
      job->error = e.what();
    }
    job->done.store(true, std::memory_order_release);
  }).detach();
}

bool App::poll_background_load() {
  if (!background_load) return false;
  if (!background_load->done.load(std::memory_order_acquire)) return true;
  const std::shared_ptr<BackgroundLoad> job = std::move(background_load);  // leaves it null
  if (job->file) {
    adopt(std::move(*job->file));
  } else {
    document.load_error = job->error;
    document.status_message.clear();
  }
  return false;
}

std::string App::background_load_path() const {
  return background_load ? background_load->path : std::string();
}

double App::background_load_seconds() const {
  return background_load ? background_load->clock.ms() / 1000.0 : 0.0;
}

void App::cancel_background_load() {
  if (!background_load) return;
  document.status_message = "opening " + background_load->path + " cancelled; nothing changed";
  background_load.reset();
}

void App::adopt(LoadedFile&& f) {
  Scene& s = f.s;
  std::optional<Scenario>& scen = f.scen;
  const std::string &path = f.path, &ext = f.ext, &map_path = f.map_path, &scen_path = f.scen_path,
                    &note = f.note;
  // Past this point nothing throws: the document and the views change together.
  for (auto& v : views) v->clear_run();
  document.doc.reset(std::move(s));
  document.scene_path = ext == ".json" || ext == ".scene" ? path : std::string();
  document.load_error.clear();
  document.status_message = "opened " + path + note;
  document.opened_path = path;
  document.map_source = map_path.empty() ? std::string() : fs::absolute(map_path).lexically_normal().string();
  document.map_source_uid = scene().map.uid();
  document.map_source_version = scene().map.version();
  document.clearance_cache.clear();
  ui.clearance_cap = 0;
  tool_state.selected_circle.reset();
  views.breakpoints.clear();
  views.playing = false;
  agent = 0;
  for (auto& v : views) v->fit_pending = true;
  document.scenario = std::move(scen);
  document.scenario_path = document.scenario ? scen_path : std::string();
  document.scenario_pick = -1;
  if (document.scenario) pick_scenario_problem(0);
  // The scene's saved set-ups become the views.
  if (!scene().views.empty()) {
    while (views.size() > scene().views.size()) views.list.pop_back();
    for (std::size_t i = 0; i < scene().views.size(); ++i) {
      if (i >= views.size()) views.list.push_back(std::make_unique<View>());
      const ViewSetup& vs = scene().views[i];
      views[i]->select_planner(vs.planner);
      for (const auto& [k, val] : vs.params) views[i]->params[k] = val;
      views[i]->agent = std::clamp(vs.agent, 0, std::max(0, int(scene().agents.size()) - 1));
      views[i]->fit_pending = true;
    }
    agent = views[0]->agent;
  } else {
    for (auto& v : views) v->agent = 0;
  }
  views.active = std::min(views.active, int(views.size()) - 1);
  if (agent >= int(scene().agents.size())) agent = 0;
  if (document.scenario) document.doc.mark_saved();  // picking the first problem is part of opening
  if (views.run_on_open) start_all_runs();
}

bool App::save(const std::string& path) {
  try {
    Scene copy = scene();
    copy.views.clear();
    for (const auto& v : views) copy.views.push_back({v->planner, v->params, v->agent});
    std::string note;
    if (copy.map_file) {
      // Reference the .map only while the map is what was read from it; never write the .map
      // (it may be a benchmark map other scenes and scenarios rely on).
      const bool unchanged = scene().map.uid() == document.map_source_uid &&
                             scene().map.version() == document.map_source_version && !document.map_source.empty() &&
                             fs::exists(document.map_source);
      if (unchanged) {
        std::error_code ec;
        const fs::path base = fs::absolute(path).parent_path();
        fs::path rel = fs::relative(document.map_source, base, ec);
        copy.map_file = ec || rel.empty() ? document.map_source : rel.string();
      } else {
        copy.map_file.reset();
        note = " (the edited map is stored in the scene; " +
               fs::path(document.map_source.empty() ? *scene().map_file : document.map_source).filename().string() +
               " was left as it was)";
      }
    }
    save_scene(copy, path);
    document.doc.mark_saved();
    document.scene_path = path;
    document.load_error.clear();
    document.status_message = "saved " + path + note;
    return true;
  } catch (const std::exception& e) {
    document.load_error = e.what();
    return false;
  }
}

void App::request_open(const std::string& path) {
  carry_out(ui.unsaved.request(PendingAction::Open, document.doc.dirty(), path));
}

void App::request_new() { carry_out(ui.unsaved.request(PendingAction::New, document.doc.dirty())); }

void App::request_quit() { carry_out(ui.unsaved.request(PendingAction::Quit, document.doc.dirty())); }

void App::carry_out(const editor::UnsavedPrompt::Next& next) {
  using Do = editor::UnsavedPrompt::Next::Do;
  switch (next.what) {
    case Do::Nothing: break;
    case Do::Carry:
      if (next.action == PendingAction::Open) load_in_background(next.path);
      else if (next.action == PendingAction::New) new_scene();
      else if (next.action == PendingAction::Quit) ui.quit_confirmed = true;
      break;
    case Do::Save: carry_out(ui.unsaved.saved(save(next.path))); break;
    case Do::SaveAs: ui.file_request = FileRequest::Save; break;
  }
}

void App::new_scene() {
  Scene s;
  s.map = GridMap(64, 64);
  Agent a;
  a.name = "agent";
  a.start = {8.5, 32.5, 0};
  a.goal = {55.5, 32.5, 0};
  s.agents.push_back(a);
  for (auto& v : views) v->clear_run();
  document.doc.reset(std::move(s));
  document.scene_path.clear();
  document.map_source.clear();
  document.scenario.reset();
  document.scenario_path.clear();
  document.opened_path.clear();
  document.load_error.clear();
  document.status_message = "new scene";
  tool_state.selected_circle.reset();
  views.breakpoints.clear();
  views.playing = false;
  agent = 0;
  for (auto& v : views) v->fit_pending = true, v->agent = 0;
  if (views.run_on_open) start_all_runs();
}

void App::pick_scenario_problem(int index) {
  if (!document.scenario || index < 0 || index >= int(document.scenario->problems.size())) return;
  const ScenProblem& p = document.scenario->problems[std::size_t(index)];
  editor::Document::Step step(document.doc, "Scenario problem");
  if (scene().agents.empty()) {
    Agent a;
    a.name = "agent";
    editor::add_agent(document.doc, a);
  }
  if (agent < 0 || agent >= int(scene().agents.size())) select_agent(0);
  const std::size_t i = std::size_t(agent);
  editor::set_agent_position(document.doc, i, editor::Endpoint::Start, {p.start_x + 0.5, p.start_y + 0.5});
  editor::set_agent_position(document.doc, i, editor::Endpoint::Goal, {p.goal_x + 0.5, p.goal_y + 0.5});
  document.scenario_pick = index;
}

View& App::add_view(const std::string& planner) {
  auto v = std::make_unique<View>();
  v->select_planner(planner);
  v->agent = view().agent;
  v->camera = view().camera;
  v->fit_pending = true;
  views.list.push_back(std::move(v));
  for (auto& w : views) w->fit_pending = true;  // every view got narrower
  return *views.list.back();
}

void App::remove_view(int index) {
  if (views.size() <= 1 || index < 0 || index >= int(views.size())) return;
  views.list.erase(views.list.begin() + index);
  views.active = std::clamp(views.active, 0, int(views.size()) - 1);
  for (auto& w : views) w->fit_pending = true;
}

void App::preset_compare(const std::vector<std::string>& planners,
                         const std::vector<std::map<std::string, std::string>>& params) {
  while (views.size() > planners.size() && views.size() > 1) views.list.pop_back();
  for (std::size_t i = 0; i < planners.size(); ++i) {
    if (i >= views.size()) views.list.push_back(std::make_unique<View>());
    View& v = *views[i];
    v.select_planner(planners[i]);
    v.agent = agent;  // a comparison plans for the agent being edited
    if (i < params.size())
      for (const auto& [k, val] : params[i]) v.params[k] = val;
    v.fit_pending = true;
  }
  views.active = 0;
  views.lock_cameras = views.lock_timelines = true;
  start_all_runs();
}

void App::start_run(View& v) {
  views.playing = false;
  if (v.run) {
    // A run in progress is cancelled (its planner is then not kept); a finished one that was
    // never shown still hands its planner on.
    if (!v.run->finished()) v.run->cancel();
    v.keep_planner(*v.run);
    v.run.reset();
  }
  v.run = std::make_unique<Run>(scene(), v.planner, v.params, v.agent, /*record=*/true,
                                v.reusable_planner());
  v.run_doc_version = document.doc.version();
}

void App::start_all_runs() {
  for (auto& v : views) start_run(*v);
}

bool App::poll_runs() {
  bool any = false;
  for (auto& v : views) {
    if (!v->run || !v->run->finished()) continue;
    v->take(*v->run, v->run_doc_version);
    v->run.reset();
    any = true;
  }
  if (any && views.lock_timelines) {
    // Views that finished together start at the same place: the end of the longest.
    std::size_t last = 0;
    for (auto& v : views)
      if (v->cursor) last = std::max(last, v->cursor->last_frame());
    if (!any_run()) seek_all(last);
  }
  return any;
}

void App::update_reference() {
  // A reference is wanted when every view has a fresh run, all for one agent, none optimal,
  // and the first view's planner names an optimal reference.
  const Registry& reg = registry();
  std::string want;
  int want_agent = -1;
  bool ok = !views.empty();
  for (const auto& v : views) {
    const PlannerInfo* info = reg.find(v->shown_planner);
    if (!v->has_run || v->run || stale(*v) || !info || info->optimal) ok = false;
    if (!ok) break;
    if (want.empty()) want = reg.reference_of(info->name), want_agent = v->shown_agent;
    if (v->shown_agent != want_agent) ok = false;
  }
  if (!ok || want.empty() || !reg.find(want)) {
    views.reference_run.reset();
    views.reference.reset();
    views.reference_key = {};
    return;
  }
  const Views::ReferenceKey key{document.doc.version(), want_agent, want};
  if (key == views.reference_key) {
    if (views.reference_run && views.reference_run->finished()) {
      views.reference_run->join();
      if (views.reference_run->error.empty()) views.reference = std::move(views.reference_run->result);
      views.reference_run.reset();
    }
    return;
  }
  views.reference.reset();
  views.reference_planner = want;
  views.reference_key = key;
  views.reference_run = std::make_unique<Run>(scene(), want, std::map<std::string, std::string>{}, want_agent,
                                        /*record=*/false);
}

bool App::stale(const View& v) const {
  if (!v.has_run) return false;
  return v.shown_doc_version != document.doc.version() || v.shown_planner != v.planner ||
         v.shown_params != v.params || v.shown_agent != v.agent;
}

bool App::any_run() const {
  for (const auto& v : views)
    if (v->run) return true;
  return views.reference_run != nullptr;
}

std::string window_title(const App& app) {
  const DocumentState& d = app.document;
  const std::string& from = !d.scene_path.empty() ? d.scene_path : d.opened_path;
  const std::string name = from.empty() ? "untitled" : fs::path(from).filename().string();
  return (d.doc.dirty() ? "*" : "") + name + " - pathlab";
}

std::size_t timeline_last(const App& app) {
  std::size_t last = 0;
  if (app.views.lock_timelines) {
    for (const auto& v : app.views)
      if (v->cursor) last = std::max(last, v->cursor->last_frame());
  } else if (app.view().cursor) {
    last = app.view().cursor->last_frame();
  }
  return last;
}

// The timeline position: locked, the furthest frame any view shows (a view whose search ended
// sooner stays on its last frame); unlocked, the active view's frame.
std::size_t timeline_now(const App& app) {
  std::size_t now = app.view().frame_wanted();
  if (app.views.lock_timelines)
    for (const auto& v : app.views) now = std::max(now, v->frame_wanted());
  return now;
}

namespace {

// Moves one cursor to a frame, by a single step when it is the neighbour (cheapest).
void move_cursor(TraceCursor& c, std::size_t target) {
  target = std::min(target, c.last_frame());
  if (target == c.frame()) return;
  if (target == c.frame() + 1) c.step_forward();
  else if (target + 1 == c.frame()) c.step_back();
  else c.seek(target);
}

}  // namespace

bool App::on_timeline(const View& v) const {
  return v.cursor && (views.lock_timelines || &v == &view());
}

void App::seek_all(std::size_t frame) {
  for (auto& v : views) {
    if (!on_timeline(*v)) continue;
    v->seek_job.finish(v->cursor);
    v->seek_job.take_wanted();  // this move supersedes it
    move_cursor(*v->cursor, frame);
  }
}

void App::scrub_to(std::size_t frame) {
  for (auto& v : views)
    if (on_timeline(*v)) scrub_view(*v, frame);
}

void App::scrub_view(View& v, std::size_t frame) {
  frame = std::min(frame, v.cursor->last_frame());
  if (v.seek_job.busy()) {
    v.seek_job.want(frame);  // for when the running jump ends (poll_seeks)
    return;
  }
  if (v.cursor->seek_cost(frame) < BackgroundSeek::kWorthIt) {
    move_cursor(*v.cursor, frame);
    return;
  }
  if (v.seek_job.jump_spare_now(v.cursor, frame)) return;  // the frame shown before is near it
  v.seek_job.start(*v.trace, frame);
}

bool App::poll_seeks() {
  bool any = false;
  for (auto& v : views) {
    if (!v->seek_job.collect(v->cursor)) continue;
    any = true;
    ++seek_stats.shown;
    seek_stats.worker_ms += v->seek_job.last_ms();
    if (const auto wanted = v->seek_job.take_wanted()) scrub_view(*v, *wanted);
  }
  return any;
}

void App::settle_seeks() {
  for (auto& v : views) {
    if (!v->seek_job.finish(v->cursor)) continue;
    if (const auto wanted = v->seek_job.take_wanted()) move_cursor(*v->cursor, *wanted);
  }
}

void App::step_all(long delta) {
  if (!view().cursor) return;
  settle_seeks();  // a step goes from the frame the user last asked for
  const long target = std::clamp(long(timeline_now(*this)) + delta, 0L, long(timeline_last(*this)));
  seek_all(std::size_t(target));
}

void App::sync_cameras(int from) {
  if (!views.lock_cameras || from < 0 || from >= int(views.size())) return;
  const editor::Camera& c = views[std::size_t(from)]->camera;
  for (auto& v : views)
    if (v.get() != views[std::size_t(from)].get()) v->camera.set_view(c.zoom(), c.offset());
}

std::optional<BreakHit> App::next_break(const View& v, std::size_t until) const {
  if (!v.cursor || views.breakpoints.empty()) return std::nullopt;
  return find_break_hit(*v.trace, v.cursor->frame(), std::min(until, v.cursor->last_frame()),
                        std::span<const CellBreak>(views.breakpoints));
}

std::string node_name(const Trace& t, const NodeInfo& d) {
  const std::optional<CellXY> cell = t.cell_of(d);
  if (!cell || d.label != kNoLabel) return t.label_of(d);
  std::string name = "(" + std::to_string(cell->x) + ", " + std::to_string(cell->y) + ")";
  if (t.heading_index_of(d) >= 0) name += " heading " + heading_name(t.heading_of(d));
  return name;
}

void App::stop_at(const View& v, const BreakHit& hit) {
  seek_all(hit.frame);
  views.playing = false;
  views.play_accum = 0;
  Views::Stop s;
  for (std::size_t i = 0; i < views.size(); ++i)
    if (views[i].get() == &v) s.view = int(i);
  s.generation = v.trace_generation;
  s.frame = hit.frame;
  s.breakpoint = hit.breakpoint;
  const NodeState* n = v.cursor ? v.cursor->state().node(hit.node) : nullptr;
  const std::string name =
      n ? node_name(v.cursor->trace(), n->desc)
        : "(" + std::to_string(hit.breakpoint.x) + ", " + std::to_string(hit.breakpoint.y) + ")";
  s.text = "stopped: " + name + (hit.breakpoint.on_open ? " opened" : " expanded");
  if (views.size() > 1) s.text += std::string(" in view ") + char('A' + s.view);
  s.text += " at frame " + std::to_string(hit.frame);
  views.stopped = std::move(s);
}

const Views::Stop* App::stop_shown(const View& v) const {
  if (!views.stopped || !v.cursor) return nullptr;
  const Views::Stop& s = *views.stopped;
  if (s.view < 0 || s.view >= int(views.size()) || views[std::size_t(s.view)].get() != &v) return nullptr;
  if (s.generation != v.trace_generation || v.cursor->frame() != s.frame) return nullptr;
  return &s;
}

void App::tick(double dt) {
  drive_tick(*this, dt);
  if (!views.playing || !view().cursor) return;
  views.play_accum += dt * double(views.fps);
  const long n = long(views.play_accum);
  if (n <= 0) return;
  views.play_accum -= double(n);
  View& v = view();
  settle_seeks();
  const std::size_t now = timeline_now(*this);
  std::size_t to = std::min(now + std::size_t(n), timeline_last(*this));
  // Breakpoints stop the player on the frame that fires them.
  if (auto hit = next_break(v, to)) {
    stop_at(v, *hit);
    return;
  }
  seek_all(to);
  if (to >= timeline_last(*this)) {
    views.playing = false;
    views.play_accum = 0;
  }
}

}  // namespace pl::app
