// The trace of a view outside the view: exported in the Posthoc format (viz/posthoc.hpp) from
// the File menu, and the note a view shows when its recording stopped at the memory budget
// (viz/trace.hpp, docs/memory.md).
#pragma once

#include <string>

#include "app/app.hpp"

namespace pl::app {

// Writes the active view's trace to `path` (atomically, like every save); the outcome goes to
// the status line or the error line. Nothing to export is an error message, not a crash.
void export_trace(App& app, const std::string& path);
// "trace truncated at frame N" with a tooltip saying why, when the trace was; nothing else.
void trace_truncation_note(const Trace& trace);

}  // namespace pl::app
