// The compare table under the views (two or more): each view's figures side by side, "% over
// optimal" against the reference run, and optionally every planner figure.
#include <algorithm>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/app.hpp"
#include "planners/plan_kind.hpp"

namespace pl::app {

namespace {

// Planner figures of every view's run, by name in order of first appearance.
std::vector<std::string> figure_names(const App& app) {
  std::vector<std::string> names;
  for (const auto& v : app.views)
    if (v->has_run)
      for (const auto& [k, val] : v->result.stats)
        if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
  return names;
}

bool any_angle_run(const std::string& planner, const PlanResult& r) {
  return any_angle_length(r, registry().find(planner));
}

}  // namespace

CompareBaseline compare_baseline(const App& app, const View& row) {
  CompareBaseline b;
  b.any_angle = any_angle_run(row.shown_planner, row.result);
  double best = 0, optimum = 0;
  for (const auto& v : app.views) {
    if (!v->has_run || !v->result.found || app.stale(*v) || v->shown_agent != row.shown_agent ||
        any_angle_run(v->shown_planner, v->result) != b.any_angle)
      continue;
    if (best == 0 || v->result.length < best) best = v->result.length;
    if (promises_optimum(v->result, registry().find(v->shown_planner))) optimum = v->result.length;
  }
  const auto& ref = app.views.reference;
  if (optimum == 0 && ref && ref->found && app.views.reference_key.agent == row.shown_agent &&
      any_angle_run(app.views.reference_planner, *ref) == b.any_angle)
    optimum = ref->length;
  b.optimum = optimum > 0;
  b.length = b.optimum ? optimum : best;
  return b;
}

float compare_height(const App& app) {
  if (app.views.size() < 2) return 0;
  float h = 56.f + 22.f * float(app.views.size());
  if (app.views.reference_run || app.views.reference) h += 18.f;
  if (app.ui.compare_figures)
    h += 24.f + 19.f * float(std::min<std::size_t>(figure_names(app).size() + 1, 12));
  // The views keep at least 60% of the height between the menu and the status bar; the figures
  // scroll in what is left.
  const float free_h = ImGui::GetIO().DisplaySize.y - app.ui.menu_height - kStatusHeight;
  return std::min(h, std::max(56.f + 22.f * float(app.views.size()) + 40.f, free_h * 0.4f));
}

void panel_compare(App& app) {
  if (app.views.size() < 2) return;
  const float scale =
      ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.f;
  const Viewport& a = app.ui.map_area;
  const float h = compare_height(app);
  ImGui::SetNextWindowPos({float(a.x) / scale, float(a.y + a.height) / scale});
  ImGui::SetNextWindowSize({float(a.width) / scale, h});
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("##compare", nullptr, flags)) {
    // "% over": each value says whether it is over the optimum or over the best view.
    const char* over_label = "% over";
    const std::vector<std::string> view_label = view_names(app);
    // Columns as wide as their contents; the planner's name takes what is left.
    // Travel time (panel_drive.cpp's speed profile) and illegal turns (when a planner reports
    // them in its figures) only when some view has them.
    bool any_illegal = false;
    for (const auto& v : app.views)
      if (v->has_run)
        for (const auto& [k, val] : v->result.stats) any_illegal |= k == "illegal turns";
    std::vector<const char*> columns = {"view", "planner", "found", "length", over_label};
    if (any_illegal) columns.push_back("illegal turns");
    for (const char* c : {"travel s", "expanded", "time ms", "memory KiB", "frame"})
      columns.push_back(c);
    if (ImGui::BeginTable("##stats", int(columns.size()),
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                              ImGuiTableFlags_SizingFixedFit)) {
      for (const char* c : columns)
        ImGui::TableSetupColumn(c, std::string(c) == "planner" ? ImGuiTableColumnFlags_WidthStretch
                                                               : ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableHeadersRow();
      for (std::size_t i = 0; i < app.views.size(); ++i) {
        const View& v = *app.views[i];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%c%s", char('A' + i), app.stale(v) ? " (stale)" : "");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(view_label[i].c_str());
        if (!v.has_run) {
          ImGui::TableNextColumn();
          ImGui::TextDisabled(v.run ? "running" : "not run");
          continue;
        }
        const PlanResult& r = v.result;
        const CompareBaseline cb = compare_baseline(app, v);
        const bool optimum = cb.optimum;
        const double base = cb.length;
        const bool beats_optimum = r.found && optimum && r.length < base * (1 - 1e-9);
        ImGui::TableNextColumn();
        if (beats_optimum && !v.path_problem.empty()) {
          ImGui::TextColored({1, 0.45f, 0.4f, 1}, "yes*");
          if (ImGui::IsItemHovered())
            ImGui::SetTooltip("A path, but not one this agent can drive:\n%s",
                              v.path_problem.c_str());
        } else {
          ImGui::TextUnformatted(r.cancelled ? "cancelled" : r.found ? "yes" : "no");
        }
        ImGui::TableNextColumn();
        if (r.found) ImGui::Text("%.4f", r.length);
        ImGui::TableNextColumn();
        if (r.found && base > 0) {
          const double pct = (r.length / base - 1) * 100;
          if (beats_optimum) {
            // Shorter than the optimum for this agent: never praised. Invalid when the agent
            // cannot drive it (its planner ignored the agent's size or terrain).
            if (!v.path_problem.empty()) {
              ImGui::TextColored({1, 0.45f, 0.4f, 1}, "invalid");
              if (ImGui::IsItemHovered())
                ImGui::SetTooltip(
                    "%.2f%% shorter than the optimum for this agent, because the agent cannot "
                    "drive it:\n%s",
                    -pct, v.path_problem.c_str());
            } else {
              ImGui::TextColored({1, 0.8f, 0.3f, 1}, "%.2f shorter", -pct);
              if (ImGui::IsItemHovered())
                ImGui::SetTooltip(
                    "Shorter than the optimum for this agent, yet drivable: the planners\n"
                    "allow different moves (e.g. any-angle against 8-connected).");
            }
          } else {
            ImGui::Text("%.2f %s", pct, optimum ? "optimal" : "best");
            if (ImGui::IsItemHovered())
              ImGui::SetTooltip("%% over the %s length %.4f among the %s runs for this agent",
                                optimum ? "optimal" : "best", base,
                                cb.any_angle ? "any-angle" : "grid (not any-angle)");
          }
        }
        if (any_illegal) {
          ImGui::TableNextColumn();
          for (const auto& [k, val] : r.stats)
            if (k == "illegal turns") {
              if (val > 0)
                ImGui::TextColored({1, 0.45f, 0.4f, 1}, "%g", val);
              else
                ImGui::Text("%g", val);
            }
        }
        ImGui::TableNextColumn();
        if (const double tt = drive_travel_time(app, *app.views[i]); tt >= 0)
          ImGui::Text("%.2f", tt);
        ImGui::TableNextColumn();
        ImGui::Text("%llu", (unsigned long long)r.expanded);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", r.time_ms);
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", double(r.memory_bytes) / 1024.0);
        ImGui::TableNextColumn();
        if (v.cursor) ImGui::Text("%zu/%zu", v.cursor->frame(), v.cursor->last_frame());
      }
      ImGui::EndTable();
    }
    if (app.views.reference_run)
      ImGui::TextDisabled("optimal length: running %s...", app.views.reference_planner.c_str());
    else if (app.views.reference && app.views.reference->found)
      ImGui::TextDisabled("optimal length %.4f (%s)", app.views.reference->length,
                          app.views.reference_planner.c_str());
    ImGui::Checkbox("planner figures (expansions per phase, graph sizes, build time...)",
                    &app.ui.compare_figures);
    const std::vector<std::string> names =
        app.ui.compare_figures ? figure_names(app) : std::vector<std::string>{};
    if (!names.empty() && ImGui::BeginTable("##figures", int(app.views.size()) + 1,
                                            ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                                ImGuiTableFlags_ScrollY)) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("figure");
      for (std::size_t i = 0; i < app.views.size(); ++i)
        ImGui::TableSetupColumn(std::string(1, char('A' + i)).c_str());
      ImGui::TableHeadersRow();
      for (const std::string& n : names) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(n.c_str());
        for (const auto& v : app.views) {
          ImGui::TableNextColumn();
          if (!v->has_run) continue;
          for (const auto& [k, val] : v->result.stats)
            if (k == n) ImGui::Text("%g", val);
        }
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

}  // namespace pl::app
