#include "app/app.hpp"

#include <algorithm>
#include <chrono>
#include <exception>

#include "core/io.hpp"

namespace pl::app {

Run::Run(const Scene& scene, std::string planner, std::map<std::string, std::string> params,
         int agent)
    : scene_(scene), planner_(std::move(planner)), params_(std::move(params)), agent_(agent) {
  worker_ = std::thread([this] {
    try {
      auto p = Registry::builtin().create(planner_, params_);
      TraceRecorder recorder;
      RunContext ctx;
      ctx.observer = &recorder;
      ctx.cancel = &cancel_;
      ctx.progress = &progress_;
      const Agent a = agent_ >= 0 && agent_ < int(scene_.agents.size())
                          ? scene_.agents[std::size_t(agent_)]
                          : Agent{};
      result = p->plan(scene_, Query::from_agent(scene_, a), ctx);
      trace = std::make_unique<Trace>(recorder.take());
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

bool App::load(const std::string& path) {
  try {
    Scene s = load_any(path);
    if (run) run.reset();  // cancels and joins
    scene = std::move(s);
    scene_path = path;
    load_error.clear();
    terrain_dirty = true;
    fit_pending = true;
    clearance_cache.clear();
    clearance_cap = 0;
    heat_key = {};
    cursor.reset();
    trace.reset();
    ++trace_generation;
    search_key = {};
    result = {};
    shown_planner.clear();
    agent = 0;
    if (!scene.views.empty()) {
      select_planner(scene.views[0].planner);
      for (const auto& [k, v] : scene.views[0].params) params[k] = v;
      agent = scene.views[0].agent;
    } else {
      select_planner(planner);
    }
    return true;
  } catch (const std::exception& e) {
    load_error = e.what();  // the current document stays as it was
    return false;
  }
}

CapabilityMask App::agent_capability() const {
  const Agent a = agent >= 0 && agent < int(scene.agents.size()) ? scene.agents[std::size_t(agent)]
                                                                   : Agent{};
  return scene.capability_of(a);
}

void App::select_planner(const std::string& name) {
  const PlannerInfo* info = Registry::builtin().find(name);
  if (!info) info = &Registry::builtin().all().front();
  planner = info->name;
  params.clear();
  for (const ParamDesc& d : info->params) params[d.name] = d.default_value;
}

void App::start_run() {
  if (run) return;
  playing = false;
  run = std::make_unique<Run>(scene, planner, params, agent);
}

bool App::poll_run() {
  if (!run || !run->finished()) return false;
  run->join();
  if (!run->error.empty()) {
    result = {};
    result.message = run->error;
    trace.reset();
    cursor.reset();
  } else {
    result = std::move(run->result);
    cursor.reset();
    trace = std::move(run->trace);
    cursor = std::make_unique<TraceCursor>(*trace);
    cursor->seek(cursor->last_frame());
  }
  ++trace_generation;
  search_key = {};
  shown_planner = run->planner();
  run.reset();
  return true;
}

void App::tick(double dt) {
  if (!playing || !cursor) return;
  play_accum += dt * double(fps);
  while (play_accum >= 1.0) {
    play_accum -= 1.0;
    if (!cursor->step_forward()) {
      playing = false;
      play_accum = 0;
      break;
    }
  }
}

}  // namespace pl::app
