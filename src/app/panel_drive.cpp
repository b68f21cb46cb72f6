// The agent drives its path (issue 11, item 9): the Drive section (play / pause, the limits of
// the speed profile, a time scrubber, each view's travel time), the shared clock, and each
// view's sprite at its pose. Every view's agent drives at once on the same clock, so a compare
// shows which path is quicker to drive, not only which is shorter.
#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/app.hpp"
#include "core/curves.hpp"
#include "viz/drive_draw.hpp"

namespace pl::app {
namespace {

// The longest travel time of the views with a path (0 when none).
double longest_drive(App& app) {
  double t = 0;
  for (auto& v : app.views) t = std::max(t, drive_travel_time(app, *v));
  return t;
}

}  // namespace

double drive_travel_time(App& app, View& v) {
  if (!v.has_run || !v.result.found || v.result.pieces.empty()) return -1;
  ViewDrive& d = v.drive;
  const DriveLimits& lim = app.views.drive.limits;
  if (!d.built || d.generation != v.trace_generation || !(d.limits == lim)) {
    d.profile = DriveProfile(v.result.pieces, lim);
    d.generation = v.trace_generation;
    d.limits = lim;
    d.built = true;
  }
  return d.profile.valid() ? d.profile.travel_time() : -1;
}

void drive_tick(App& app, double dt) {
  DriveState& d = app.views.drive;
  if (!d.playing) return;
  const double end = longest_drive(app);
  d.time += dt * d.rate;
  if (d.time >= end) {
    d.time = end;
    d.playing = false;
  }
}

void drive_build(App& app, View& v, DrawSink& sink, const Style& style) {
  if (!app.views.drive.show) return;
  if (drive_travel_time(app, v) < 0) return;
  if (v.shown_agent < 0 || v.shown_agent >= int(app.scene().agents.size())) return;
  if (v.shown_width != app.scene().map.width() || v.shown_height != app.scene().map.height()) return;
  const DriveProfile& p = v.drive.profile;
  const double t = std::min(app.views.drive.time, p.travel_time());
  // Which piece is under the vehicle: reverse lights while it is driven backwards.
  const double s = p.distance_at(t);
  DriveDrawOptions o;
  double acc = 0;
  for (const PathPiece& piece : v.result.pieces) {
    acc += piece.length();
    if (s <= acc) {
      o.reversing = piece.reverse;
      break;
    }
  }
  draw_driving_agent(sink, app.scene().agents[std::size_t(v.shown_agent)], p.pose_at(t), style, o);
}

void section_drive(App& app) {
  DriveState& d = app.views.drive;
  if (!ImGui::CollapsingHeader("Drive", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const double end = longest_drive(app);
  ImGui::Checkbox("show agents", &d.show);
  ImGui::SameLine();
  if (ImGui::Button(d.playing ? "Pause##drive" : "Play##drive") && end > 0) {
    d.show = true;
    if (!d.playing && d.time >= end) d.time = 0;
    d.playing = !d.playing;
  }
  ImGui::SameLine();
  if (ImGui::Button("Restart##drive")) {
    d.time = 0;
    d.show = true;
  }
  float t = float(std::min(d.time, end));
  if (ImGui::SliderFloat("time##drive", &t, 0.f, float(std::max(end, 1e-3)), "%.2f s")) {
    d.time = double(t);
    d.show = true;
    d.playing = false;
  }
  float rate = float(d.rate);
  if (ImGui::SliderFloat("playback##drive", &rate, 0.1f, 10.f, "x %.1f", ImGuiSliderFlags_Logarithmic))
    d.rate = double(rate);
  // The limits of the speed profile, in map units (cells) and seconds.
  float vmax = float(d.limits.max_speed), acc = float(d.limits.accel), lat = float(d.limits.lateral_accel);
  if (ImGui::SliderFloat("max speed##drive", &vmax, 0.1f, 50.f, "%.2f /s", ImGuiSliderFlags_Logarithmic))
    d.limits.max_speed = std::max(0.1, double(vmax));
  if (ImGui::SliderFloat("accel.##drive", &acc, 0.1f, 50.f, "%.2f /s2", ImGuiSliderFlags_Logarithmic))
    d.limits.accel = std::max(0.1, double(acc));
  if (ImGui::SliderFloat("lat. accel.##drive", &lat, 0.1f, 50.f, "%.2f /s2", ImGuiSliderFlags_Logarithmic))
    d.limits.lateral_accel = std::max(0.1, double(lat));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("On an arc of radius r the speed is at most sqrt(lateral accel. * r);\n"
                      "the vehicle stops at gear changes and at corners of grid paths.");
  for (std::size_t i = 0; i < app.views.size(); ++i) {
    View& v = *app.views[i];
    const double tt = drive_travel_time(app, v);
    if (tt < 0) {
      ImGui::TextDisabled("%c: no path to drive", char('A' + i));
      continue;
    }
    const DriveProfile& p = v.drive.profile;
    const double now = std::min(d.time, tt);
    ImGui::Text("%c: %.2f s, %d stop%s, now %.2f/s", char('A' + i), tt, p.stops(),
                p.stops() == 1 ? "" : "s", p.speed_at(now));
  }
}

}  // namespace pl::app
