// The parts of one frame of the main loop (app_main.cpp) that are more than a call: keeping the
// runs fresh, laying the map area out, the views' labels and titles, rendering the views, and
// writing the pictures a menu or key asked for.
#pragma once

#include <string>

#include "app/window.hpp"

namespace pl::app {

struct App;

// Starts the reference run and re-runs stale views (live editing), as the settings ask.
void refresh_runs(App& app);
// The framebuffer rectangle the views share: right of the side column, between the menu bar
// and the compare table and status bar.
void layout_map_area(App& app, const FrameSize& fb);
// Text labels of the views' draw lists and each view's title, on ImGui's background list.
void view_titles(App& app, float scale);
// Clears the framebuffer and draws every view (terrain, heat map, search, draw list), then
// writes the active view as a PNG if File > Export asked for it.
void render_views(App& app, const FrameSize& fb);
// A rectangle of the back buffer (GL coordinates: x, y from the bottom-left) as a PNG.
bool write_region(const std::string& path, int x0, int y0, int width, int height);
// The whole window after ImGui drew (F12).
void write_window_shot(App& app, const FrameSize& fb);

}  // namespace pl::app
