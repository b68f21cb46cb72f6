// Views named by what sets them apart, and which agent settings their planners read: both from
// the registry's declarations, so nothing here knows a planner.
#include <algorithm>
#include <string>
#include <vector>

#include "app/app.hpp"

namespace pl::app {

namespace {

const std::string& planner_of(const View& v) { return v.has_run ? v.shown_planner : v.planner; }
const std::map<std::string, std::string>& params_of(const View& v) {
  return v.has_run ? v.shown_params : v.params;
}
int agent_of(const View& v) { return v.has_run ? v.shown_agent : v.agent; }

}  // namespace

std::vector<std::string> view_names(const App& app) {
  std::vector<std::string> names;
  bool agents_differ = false;
  for (const auto& v : app.views)
    if (agent_of(*v) != agent_of(*app.views[0])) agents_differ = true;
  for (const auto& v : app.views) {
    const std::string& planner = planner_of(*v);
    std::string name = planner;
    const PlannerInfo* info = registry().find(planner);
    for (const auto& [key, value] : params_of(*v)) {
      bool shown = true;  // a parameter the registry does not list: say it
      if (info)
        for (const ParamDesc& d : info->params)
          if (d.name == key) shown = d.default_value != value;
      // A default value still tells apart two views of the same planner that differ in it.
      for (const auto& w : app.views) {
        if (w == v || planner_of(*w) != planner) continue;
        const auto it = params_of(*w).find(key);
        if (it == params_of(*w).end() || it->second != value) shown = true;
      }
      if (shown) name += " " + key + "=" + value;
    }
    if (agents_differ) {
      const int a = agent_of(*v);
      const auto& agents = app.scene().agents;
      if (a >= 0 && a < int(agents.size())) name += " for " + agents[std::size_t(a)].name;
    }
    names.push_back(std::move(name));
  }
  return names;
}

AgentInputs views_agent_inputs(const App& app) {
  AgentInputs used = 0;
  for (const auto& v : app.views)
    if (const PlannerInfo* info = registry().find(v->planner)) used |= info->agent_inputs;
  return used;
}

std::string agent_input_readers(AgentInput input) {
  const std::vector<std::string> readers = registry().readers_of(input);
  if (readers.empty()) return "no planner reads this";
  std::string out = "read by ";
  for (std::size_t i = 0; i < readers.size(); ++i) out += (i ? ", " : "") + readers[i];
  return out;
}

}  // namespace pl::app
