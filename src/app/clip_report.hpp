// What ImGui could not show in full this frame, measured from its own layout state: for every
// window, how far its items reach against the rectangle it clips them to (a window that cannot
// scroll that way hides the rest), and for every table column, the width its cells and header
// need against the width it was given. The layout file (--layout) carries it, so a test can
// assert that nothing is clipped at a given window size without reading text off pixels.
#pragma once

#include <string>

namespace pl::app {

// A JSON object {"windows": [...], "tables": [...]} for the frame ImGui just ended. Call after
// ImGui::Render(), before the next NewFrame().
std::string clip_report_json();

}  // namespace pl::app
