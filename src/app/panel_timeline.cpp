// Timeline: play/pause (Space), step (Left/Right, Shift x10, Ctrl x100), scrub bar, counters.
#include <algorithm>

#include <imgui.h>

#include "app/app.hpp"

namespace pl::app {
namespace {

void step(App& app, long delta) {
  TraceCursor& c = *app.cursor;
  const long target = std::clamp(long(c.frame()) + delta, 0L, long(c.last_frame()));
  if (delta == 1) c.step_forward();
  else if (delta == -1) c.step_back();
  else c.seek(std::size_t(target));
}

}  // namespace

void panel_timeline(App& app) {
  ImGui::SetNextWindowPos({0, 250}, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize({kSideWidth, 230}, ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Timeline")) {
    if (!app.cursor) {
      ImGui::TextDisabled("Run a planner to step through its search.");
    } else {
      TraceCursor& c = *app.cursor;
      const ImGuiIO& io = ImGui::GetIO();
      if (!io.WantCaptureKeyboard) {
        const long n = io.KeyCtrl ? 100 : io.KeyShift ? 10 : 1;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) app.playing = !app.playing;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) step(app, n), app.playing = false;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) step(app, -n), app.playing = false;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home), false)) c.seek(0);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End), false)) c.seek(c.last_frame());
      }
      if (ImGui::Button("|<")) c.seek(0);
      ImGui::SameLine();
      if (ImGui::Button("<")) step(app, -1);
      ImGui::SameLine();
      if (ImGui::Button(app.playing ? "Pause" : "Play", {60, 0})) {
        if (!app.playing && c.frame() == c.last_frame()) c.seek(0);
        app.playing = !app.playing;
      }
      ImGui::SameLine();
      if (ImGui::Button(">")) step(app, 1);
      ImGui::SameLine();
      if (ImGui::Button(">|")) c.seek(c.last_frame());

      int frame = int(c.frame());
      ImGui::SetNextItemWidth(-1);
      if (ImGui::SliderInt("##scrub", &frame, 0, int(c.last_frame()), "frame %d"))
        c.seek(std::size_t(frame)), app.playing = false;
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderFloat("##fps", &app.fps, 1, 2000, "%.0f frames/s", ImGuiSliderFlags_Logarithmic);

      const FrameState& s = c.state();
      ImGui::Text("frame %zu / %zu", c.frame(), c.last_frame());
      if (!s.phase().empty())
        ImGui::Text("phase: %.*s", int(s.phase().size()), s.phase().data());
      const SearchCounters& k = s.counters();
      ImGui::Text("expanded %llu  generated %llu", (unsigned long long)k.expanded,
                  (unsigned long long)k.generated);
      ImGui::Text("open %llu  relaxed %llu", (unsigned long long)k.open,
                  (unsigned long long)k.relaxed);
      if (const NodeState* cur = s.current())
        ImGui::Text("current (%.1f, %.1f) g %.3f h %.3f f %.3f", double(cur->desc.x),
                    double(cur->desc.y), cur->g, cur->h, cur->f());
    }
  }
  ImGui::End();
}

}  // namespace pl::app
