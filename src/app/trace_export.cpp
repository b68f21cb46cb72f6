#include "app/trace_export.hpp"

#include <imgui.h>

#include <exception>

#include "core/io.hpp"
#include "viz/posthoc.hpp"

namespace pl::app {

void export_trace(App& app, const std::string& path) {
  const View& v = app.view();
  if (!v.trace) {
    app.document.load_error = "no trace to export: run the view's planner first";
    return;
  }
  try {
    write_file_atomic(path, to_posthoc(*v.trace));
    app.document.status_message =
        "exported the trace of " + v.shown_planner + " (Posthoc) to " + path +
        (v.trace->truncated() ? " (truncated at frame " + std::to_string(v.trace->truncated_frame()) + ")"
                              : std::string());
    app.document.load_error.clear();
  } catch (const std::exception& e) {
    app.document.load_error = e.what();
  }
}

void trace_truncation_note(const Trace& trace) {
  if (!trace.truncated()) return;
  ImGui::TextColored({1, 0.75f, 0.2f, 1}, "trace truncated at frame %zu", trace.truncated_frame());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The recording reached its memory budget (%.0f MB; PATHLAB_TRACE_BUDGET sets it) "
                      "and stopped here. The search ran on to its end: its result is complete, "
                      "only the frames after this one were not recorded.",
                      double(trace.budget()) / (1024.0 * 1024.0));
}

}  // namespace pl::app
