// Compare presets (the Compare menu and --preset): the views a comparison needs, as data.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/app.hpp"

namespace pl::app {
namespace {

// Compare presets: views a comparison needs, as data. A preset naming a planner the registry
// lacks is not offered.
struct Preset {
  const char* id;  // for --preset
  const char* label;
  std::vector<std::string> planners;
  std::vector<std::map<std::string, std::string>> params;
  bool figures = false;  // the comparison is about the planners' own figures: show them
  // > 0: the planners turn; an agent with no turning radius gets this one (an undoable edit).
  double turning_radius = 0;
};

const std::vector<Preset>& presets() {
  static const std::vector<Preset> p = {
      {"astar-dijkstra", "A* vs Dijkstra", {"astar", "dijkstra"}, {}},
      {"astar-8-4", "A*: 8- vs 4-connected", {"astar", "astar"}, {{{"connectivity", "8"}}, {{"connectivity", "4"}}}},
      {"astar-annotated", "A* vs Annotated A* (agent size)", {"astar", "annotated-astar"}, {}},
      {"clearance-brushfire", "Annotated A*: true clearance vs Brushfire",
       {"annotated-astar", "annotated-astar"},
       {{{"clearance", "true"}}, {{"clearance", "brushfire"}}}},
      {"hq-lq", "HAA*: HQ vs LQ", {"haa", "haa"}, {{{"quality", "hq"}}, {{"quality", "lq"}}}, true},
      {"haa-annotated", "HAA* vs Annotated A*", {"haa", "annotated-astar"}, {}},
      {"eager-lazy", "Circles: eager vs lazy", {"circles", "circles"}, {{{"mode", "eager"}}, {{"mode", "lazy"}}}, true},

      // Any-angle (issue 12): Theta* against the exact planner, whose length is the optimum the
      // table's "% over" column measures each query's gap against; and what post-smoothing buys.
      {"theta-exact", "Theta* vs exact (visibility graph)", {"theta", "visibility"}, {}, true},
      {"anyangle-exact", "Any-angle: Theta*, Lazy Theta*, Block A* vs exact",
       {"theta", "lazy-theta", "block-astar", "visibility"}, {}},
      {"anyangle-smoothing", "Any-angle: corner A* + smoothing vs Theta* vs exact",
       {"corner-astar", "theta", "visibility"}, {{{"smoothing", "true"}}, {}, {}}},
      // The subgoal-graph paper's question (Uras & Koenig 2015): A* and Theta* on the grid
      // against A* and Theta* on the N-level subgoal graph; the table's time column is the point.
      {"subgoal-anyangle", "Subgoal graphs: A*, Theta* on the grid vs on S_N",
       {"astar", "theta", "subgoal", "subgoal"},
       {{}, {}, {{"levels", "n"}}, {{"levels", "n"}, {"search", "theta"}}}},

      // Turning vehicles (issue 11, item 10): Pinter's Figure 1 a-d (A*; A* + smoothing, lines
      // only; curved turns on the smoothed path, ignoring obstacles; Directional-24), and
      // Directional-24 against the article's hybrid and Hybrid A* (Dolgov). The table shows
      // length, illegal turns, travel time and planning time.
      {"pinter-figure1", "Turning: Pinter Figure 1 (A*, smoothed, curved turns, Directional-24)",
       {"astar", "astar-turns", "astar-turns", "directional"},
       {{}, {{"smoothing", "simple"}, {"turns", "none"}}, {{"smoothing", "simple"}, {"turns", "curved"}},
        {{"neighbours", "24"}}},
       false, 2.0},
      {"directional-hybrid", "Turning: Directional-24 vs hybrid vs Hybrid A*",
       {"directional", "hybrid", "hybrid-astar"}, {{{"neighbours", "24"}}, {}, {}}, false, 2.0},
      // Pinter's road problem and fixed-angle art (issue 11, item 7): the same A* path along
      // the road smoothed into curves with plain cornering, and with cones beyond the turns
      // (Figure 16 a and b); a continuous path against its 8- and 16-heading sprite versions.
      {"roads-cones", "Roads: plain cornering vs cones (Pinter Figure 16)", {"astar-turns", "astar-turns"},
       {{{"smoothing", "presmooth48"}, {"road", "prefer"}}, {{"smoothing", "presmooth48"}, {"road", "cones"}}},
       false, 1.5},
      {"fixed-angle-art", "Turning: continuous vs fixed-angle art (8 and 16 headings)",
       {"astar-turns", "astar-turns", "astar-turns"},
       {{{"smoothing", "presmooth48"}, {"road", "prefer"}}, {{"smoothing", "presmooth48"}, {"road", "prefer"}, {"art", "8"}},
        {{"smoothing", "presmooth48"}, {"road", "prefer"}, {"art", "16"}}},
       false, 2.0},
  };
  return p;
}

bool preset_available(const Preset& p) {
  const Registry& reg = registry();
  for (std::size_t i = 0; i < p.planners.size(); ++i) {
    const PlannerInfo* info = reg.find(p.planners[i]);
    if (!info) return false;
    if (i < p.params.size())
      for (const auto& [k, v] : p.params[i]) {
        const ParamDesc* d = nullptr;
        for (const ParamDesc& q : info->params)
          if (q.name == k) d = &q;
        if (!d) return false;
        if (d->type == ParamDesc::Type::Enum &&
            std::find(d->choices.begin(), d->choices.end(), v) == d->choices.end())
          return false;
      }
  }
  return true;
}

}  // namespace

bool apply_preset(App& app, const std::string& id) {
  for (const Preset& p : presets())
    if (id == p.id && preset_available(p)) {
      if (p.turning_radius > 0 && app.agent >= 0 && app.agent < int(app.scene().agents.size()) &&
          !(app.scene().agents[std::size_t(app.agent)].turning_radius > 0))
        editor::set_agent_turning_radius(app.document.doc, std::size_t(app.agent), p.turning_radius);
      app.preset_compare(p.planners, p.params);
      app.ui.compare_figures |= p.figures;
      return true;
    }
  return false;
}

std::vector<std::string> preset_ids() {
  std::vector<std::string> ids;
  for (const Preset& p : presets())
    if (preset_available(p)) ids.push_back(p.id);
  return ids;
}

void compare_menu_items(App& app) {
  for (const Preset& p : presets()) {
    const bool ok = preset_available(p);
    if (ImGui::MenuItem(p.label, nullptr, false, ok)) apply_preset(app, p.id);
  }
}

}  // namespace pl::app
