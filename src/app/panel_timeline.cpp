// Timeline: play/pause (Space), step (Left/Right, Shift x10, Ctrl x100), scrub bar, phase jumps
// (PageUp/PageDown), breakpoints on cells, counters and the open list of the frame on screen.
// Locked views move together (App::seek_all).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include <imgui.h>

#include "app/app.hpp"
#include "app/trace_export.hpp"
#include "app/widgets.hpp"
#include "viz/timeline.hpp"

namespace pl::app {
namespace {

void open_list(App& app, const FrameState& s) {
  // The best 1,000 are plenty to read; the count says how many there are.
  const std::vector<const NodeState*> list = s.open_list(1000);
  ImGui::Text("open list (%llu, best first)", (unsigned long long)s.counters().open);
  if (list.empty()) return;
  // Nodes are named through their node space (or the planner's own label); a search whose nodes
  // have headings gets a column for them, so eight headings of one cell are eight distinct rows.
  const Trace& t = s.trace();
  const bool headings = t.has_headings();
  // The numbers as wide as they need, the node's name the rest.
  if (ImGui::BeginTable("##open", headings ? 5 : 4,
                        ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                            ImGuiTableFlags_SizingFixedFit,
                        {0, 160})) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // Widths to start from, so the numbers are not squeezed the frame the list first shows
    // (a fixed column fits its contents from the next frame on).
    const float number_w = ImGui::CalcTextSize("9999.999").x;
    ImGui::TableSetupColumn("node", ImGuiTableColumnFlags_WidthStretch);
    if (headings) ImGui::TableSetupColumn("heading", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("heading").x);
    ImGui::TableSetupColumn("g", ImGuiTableColumnFlags_WidthFixed, number_w);
    ImGui::TableSetupColumn("h", ImGuiTableColumnFlags_WidthFixed, number_w);
    ImGui::TableSetupColumn("f", ImGuiTableColumnFlags_WidthFixed, number_w);
    ImGui::TableHeadersRow();
    ImGuiListClipper clip;
    clip.Begin(int(list.size()));
    while (clip.Step()) {
      for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
        const NodeState& n = *list[std::size_t(i)];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const std::optional<CellXY> cell = t.cell_of(n.desc);
        // A node on a cell is named by its cell (the heading has its own column) unless its
        // planner named it; others by their label.
        std::string name = t.label_of(n.desc);
        if (cell && n.desc.label == kNoLabel)
          name = "(" + std::to_string(cell->x) + ", " + std::to_string(cell->y) + ")";
        // A name wider than its column ("abstract graph 105" in a narrow panel) keeps its end,
        // where the numbers are, and shows whole on hover.
        const float room = ImGui::GetContentRegionAvail().x;
        std::string shown = name;
        const bool elided = ImGui::CalcTextSize(name.c_str()).x > room;
        if (elided) {
          const float dots = ImGui::CalcTextSize("...").x;
          while (shown.size() > 1 && ImGui::CalcTextSize(shown.c_str()).x + dots > room) shown.erase(0, 1);
          shown = "..." + shown;
        }
        shown += "##o" + std::to_string(i);
        // Clicking an entry centres the views on it.
        if (ImGui::Selectable(shown.c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) {
          app.view().camera.center_on(t.position_of(n.desc));
          app.sync_cameras(app.views.active);
        }
        if (elided && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", name.c_str());
        if (headings) {
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(heading_name(t.heading_of(n.desc)).c_str());
        }
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", n.g);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", n.h);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", n.f());
      }
    }
    ImGui::EndTable();
  }
}

}  // namespace

void section_timeline(App& app) {
  {
    View& v = app.view();
    if (!v.cursor) {
      ImGui::TextDisabled("Run a planner to step through its search.");
    } else {
      TraceCursor& c = *v.cursor;
      const std::size_t now = timeline_now(app), last = timeline_last(app);
      const ImGuiIO& io = ImGui::GetIO();
      auto jump_phase = [&](bool forward) {
        const auto f = forward ? next_phase_frame(c.trace(), c.frame()) : prev_phase_frame(c.trace(), c.frame());
        if (f) app.seek_all(*f), app.views.playing = false;
      };
      if (!io.WantCaptureKeyboard) {
        const long n = io.KeyCtrl ? 100 : io.KeyShift ? 10 : 1;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) {
          if (!app.views.playing && now >= last) app.seek_all(0);
          app.views.playing = !app.views.playing;
        }
        if (!io.KeyAlt && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)))
          app.step_all(n), app.views.playing = false;
        if (!io.KeyAlt && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)))
          app.step_all(-n), app.views.playing = false;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home), false)) app.seek_all(0);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End), false)) app.seek_all(last);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown))) jump_phase(true);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp))) jump_phase(false);
      }
      if (ImGui::Button("|<")) app.seek_all(0);
      ImGui::SameLine();
      if (ImGui::Button("-10")) app.step_all(-10);
      ImGui::SameLine();
      if (ImGui::Button("<")) app.step_all(-1);
      ImGui::SameLine();
      if (ImGui::Button(app.views.playing ? "Pause" : "Play", {50, 0})) {
        if (!app.views.playing && now >= last) app.seek_all(0);
        app.views.playing = !app.views.playing;
      }
      ImGui::SameLine();
      if (ImGui::Button(">")) app.step_all(1);
      ImGui::SameLine();
      if (ImGui::Button("+10")) app.step_all(10);
      ImGui::SameLine();
      if (ImGui::Button(">|")) app.seek_all(last);

      // No text inside the scrub bar, where its handle would cover it: the frame is said in the
      // line under it. The speed is a drag field (no handle).
      int frame = int(timeline_now(app));
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##scrub", &frame, 0, int(last), ""))
        app.scrub_to(std::size_t(frame)), app.views.playing = false;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("frame %d of %zu", frame, last);
      ImGui::SetNextItemWidth(-1);
      ImGui::DragFloat("##fps", &app.views.fps, 2.f, 1, 5000, "%.0f frames/s",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Playing speed: drag, or double-click to type");
      if (ImGui::SmallButton("<< phase")) jump_phase(false);
      ImGui::SameLine();
      if (ImGui::SmallButton("phase >>")) jump_phase(true);
      if (!app.views.breakpoints.empty()) {
        ImGui::SameLine();
        if (ImGui::SmallButton("run to breakpoint")) {
          if (auto hit = app.next_break(v)) app.stop_at(v, *hit);
          app.views.playing = false;
        }
      }

      // Where a breakpoint stopped the timeline, in words (the cell is highlighted on the map).
      if (const Views::Stop* stop = app.stop_shown(v)) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.92f, 0.0f, 1.0f));
        ImGui::TextWrapped("%s", stop->text.c_str());
        ImGui::PopStyleColor();
      }
      const FrameState& s = c.state();
      ImGui::Text("frame %zu / %zu", c.frame(), c.last_frame());
      app.ui.panel_frame = long(c.frame());
      // Locked views share one slider that runs to the longest search: a view whose search
      // ended sooner stays on its last frame, and says so rather than disagree silently.
      if (c.frame() != now) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        if (c.frame() == c.last_frame())
          ImGui::TextWrapped("this view's search ended at frame %zu; the locked timeline goes on to %zu "
                             "for a longer search", c.frame(), last);
        else
          ImGui::TextWrapped("the locked timeline is at frame %zu of %zu", now, last);
        ImGui::PopStyleColor();
      }
      trace_truncation_note(c.trace());
      // What this frame did, from its events.
      {
        std::size_t opened = 0, relaxed = 0, closed = 0, tests = 0, marks = 0, paths = 0;
        for (const TraceEvent& e : c.trace().frame_events(c.frame())) {
          switch (e.kind) {
            case TraceEvent::Kind::Open: ++opened; break;
            case TraceEvent::Kind::Relax: ++relaxed; break;
            case TraceEvent::Kind::Close: ++closed; break;
            case TraceEvent::Kind::Test: ++tests; break;
            case TraceEvent::Kind::Mark: ++marks; break;
            case TraceEvent::Kind::Path: ++paths; break;
            default: break;
          }
        }
        std::string what;
        auto add = [&](std::size_t n, const char* word) {
          if (n) what += (what.empty() ? "" : ", ") + std::to_string(n) + " " + word;
        };
        add(closed, "expanded");
        add(opened, "opened");
        add(relaxed, "improved");
        add(tests, "tested");
        add(marks, "marked");
        add(paths, "path");
        ImGui::TextWrapped("this frame: %s", what.empty() ? "nothing (start)" : what.c_str());
      }
      if (!s.phase().empty())
        ImGui::Text("phase: %.*s", int(s.phase().size()), s.phase().data());
      const SearchCounters& k = s.counters();
      ImGui::TextWrapped("expanded %llu  generated %llu  relaxed %llu", (unsigned long long)k.expanded,
                         (unsigned long long)k.generated, (unsigned long long)k.relaxed);
      for (const auto& [name, value] : s.named_counters())
        ImGui::Text("%.*s %g", int(name.size()), name.data(), value);
      if (const NodeState* cur = s.current()) {
        const Trace& t = c.trace();
        ImGui::TextWrapped("expanding %s", t.label_of(cur->desc).c_str());
        ImGui::TextWrapped("  g %.3f h %.3f f %.3f", cur->g, cur->h, cur->f());
        if (const NodeState* p = s.parent_of(*cur))
          ImGui::TextWrapped("  parent %s", t.label_of(p->desc).c_str());
      }

      if (!app.views.breakpoints.empty()) {
        ImGui::Separator();
        hint("breakpoints (right-click a cell to add)");
        for (std::size_t i = 0; i < app.views.breakpoints.size(); ++i) {
          const Views::Breakpoint& b = app.views.breakpoints[i];
          if (b.heading >= 0)
            ImGui::Text("(%d, %d) heading %d when %s", b.x, b.y, b.heading,
                        b.on_open ? "opened" : "expanded");
          else
            ImGui::Text("(%d, %d) when %s", b.x, b.y, b.on_open ? "opened" : "expanded");
          ImGui::SameLine();
          if (ImGui::SmallButton(("remove##bp" + std::to_string(i)).c_str())) {
            app.views.breakpoints.erase(app.views.breakpoints.begin() + long(i));
            break;
          }
        }
      } else {
        hint("right-click a cell: stop when it is opened / expanded");
      }
      ImGui::Separator();
      open_list(app, s);
    }
  }
}

}  // namespace pl::app
