#include "app/tools/agent_tool.hpp"

#include <algorithm>
#include <cmath>

#include "app/app.hpp"

namespace pl::app {

namespace {

// The start or goal whose heading handle (the arrow's tip) is within tol of p.
std::optional<editor::AgentHandle> pick_heading_handle(const Scene& scene, Vec2 p, double tol) {
  std::optional<editor::AgentHandle> best;
  double best_d = tol;
  for (std::size_t i = 0; i < scene.agents.size(); ++i) {
    const Agent& a = scene.agents[i];
    const double len = agent_heading_length(a);
    for (editor::Endpoint w : {editor::Endpoint::Start, editor::Endpoint::Goal}) {
      const Pose& pose = w == editor::Endpoint::Start ? a.start : a.goal;
      const Vec2 tip = pose.position() + Vec2{std::cos(pose.heading), std::sin(pose.heading)} * len;
      const double d = distance(tip, p);
      if (d <= best_d) best_d = d, best = editor::AgentHandle{i, w};
    }
  }
  return best;
}

}  // namespace

void AgentTool::press(App& app, Vec2 m, double px) {
  editor::Document& doc = app.document.doc;
  const editor::Endpoint place = app.tool_state.place_endpoint;
  handle_.reset();
  heading_ = false;
  const double tol = std::max(0.45, 8 * px);
  if (auto h = pick_heading_handle(app.scene(), m, std::max(0.3, 6 * px))) {
    handle_ = h;
    heading_ = true;
    app.select_agent(int(h->agent));
    doc.begin_step("Agent heading");
  } else if (auto e = editor::pick_agent_endpoint(app.scene(), m, tol)) {
    handle_ = e;
    app.select_agent(int(e->agent));
    doc.begin_step(e->which == editor::Endpoint::Start ? "Move start" : "Move goal");
  } else {
    doc.begin_step(place == editor::Endpoint::Start ? "Place start" : "Place goal");
    if (app.scene().agents.empty()) {
      Agent a;
      a.name = "agent";
      a.start = a.goal = {editor::snap_to_cell_centre(m).x, editor::snap_to_cell_centre(m).y, 0};
      app.select_agent(int(editor::add_agent(doc, a)));
    }
    app.agent = std::clamp(app.agent, 0, int(app.scene().agents.size()) - 1);
    handle_ = editor::AgentHandle{std::size_t(app.agent), place};
    editor::set_agent_position(doc, std::size_t(app.agent), place, editor::snap_to_cell_centre(m));
  }
}

void AgentTool::drag(App& app, Vec2 m) {
  if (!handle_ || handle_->agent >= app.scene().agents.size()) return;
  if (heading_)
    editor::aim_agent_heading(app.document.doc, handle_->agent, handle_->which, m);
  else
    editor::set_agent_position(app.document.doc, handle_->agent, handle_->which, editor::snap_to_cell_centre(m));
}

void AgentTool::release(App& app, Vec2) {
  app.document.doc.end_step();
  handle_.reset();
}

}  // namespace pl::app
