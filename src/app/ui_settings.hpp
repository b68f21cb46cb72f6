// What the user interface adds around the document and the views: display toggles and layers,
// layout (menu bar, side column, the framebuffer area of the views), the pointer over the map,
// and the file requests a menu or shortcut made for the next frame.
#pragma once

#include <array>
#include <bitset>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app/renderer.hpp"
#include "core/clearance.hpp"
#include "core/geometry.hpp"
#include "editor/cell.hpp"
#include "editor/unsaved_prompt.hpp"
#include "viz/draw.hpp"

namespace pl::app {

// What would throw away unsaved changes (the question: editor/unsaved_prompt.hpp).
using editor::PendingAction;
// A file dialog a menu asked for (files.cpp shows it).
enum class FileRequest { None, Open, Save, ImportPng, ExportView, ExportMap, ExportTrace };

struct UiSettings {
  // Shared display options.
  std::array<bool, kLayerCount> layers{};
  bool grid_lines = true;
  bool show_parent_arrows = false;
  // Planner shapes that carry a requirement (HAA* edges, entrances): only those the view's
  // agent may use.
  bool only_usable_shapes = true;
  // Failed tests of every frame so far; off: only the frame on screen's (SearchDrawOptions).
  bool rejected_history = false;
  bool passed_history = false;  // passed tests of earlier frames too (else the frame's only)
  // Planner shapes of these roles are hidden (legend checkboxes in the Display tab).
  std::bitset<std::size_t(Role::Count)> hidden_roles;
  bool show_difference = true;  // compare: cells expanded by one view and not the other
  // Every view drawn anew each frame, never its kept picture (--redraw-views: tests compare
  // the two, and timings of the kept picture against drawing).
  bool redraw_views = false;
  bool map_legend = true;       // a small legend of what each view shows, in its corner
  bool compare_figures = false; // the compare table also lists every planner figure

  // Clearance overlay: a heat map texture over the terrain, numbers when zoomed in.
  bool show_clearance = false;
  bool show_g_heat = false;       // g of the frame on screen as a heat map (instead of clearance)
  bool show_search_numbers = true;  // g, h, f in each searched cell when zoomed in
  ClearanceMetric clearance_metric = ClearanceMetric::True;
  CapabilityMask clearance_cap = 0;  // 0 = the current agent's capability

  // Layout and pointer.
  std::optional<Vec2> hover_map;  // map point under the mouse
  int hover_view = -1;            // view under the mouse
  Viewport map_area;              // framebuffer pixels the views share
  std::optional<editor::Cell> menu_cell;  // the cell a right-click menu is about
  bool ignore_input = false;      // automated runs: the picture must not depend on the pointer
  float menu_height = 0;          // main menu bar, ImGui units
  float side_width = 330;         // the side column, ImGui units (the user may resize it)
  bool side_scroll_end = false;   // automated runs (--side-scroll end): show the column's end
  int side_tab_request = -1;      // select this side tab next frame (0 Plan, 1 Edit, 2 Display)
  // The scenario's problem list (scenario_window.cpp): its sorted order and what it was sorted
  // for, the number typed to find one, a scroll to the picked one pending.
  std::vector<int> scenario_order;
  std::string scenario_order_key;
  int scenario_find = 0;
  bool scenario_scroll_to_pick = false;

  // Text the app drew over the views this frame (titles, legends; frame.cpp) and the view it
  // belongs in, ImGui units: the layout file says whether each fits (tests).
  struct DrawnText {
    std::string what;
    float x = 0, y = 0, w = 0, h = 0;      // the text's box
    float vx = 0, vy = 0, vw = 0, vh = 0;  // its view's
  };
  std::vector<DrawnText> drawn_texts;
  // The frame the side panel's timeline named this frame, -1 none (the layout file: tests check
  // that the panel and the view it describes show the same frame).
  long panel_frame = -1;
  // Panels that leave their background to the renderer (begin_opaque_panel, the menu bar),
  // ImGui units, and their colour: it clears them before the interface is drawn, once a frame.
  struct PanelRect {
    float x = 0, y = 0, w = 0, h = 0;
    float r = 0, g = 0, b = 0;
  };
  std::vector<PanelRect> opaque_panels;

  // Files.
  FileRequest file_request = FileRequest::None;
  bool quit_confirmed = false;  // the user agreed to quit (main loop closes the window)
  // The unsaved-changes question and what waits for it (App::request carries it out).
  editor::UnsavedPrompt unsaved;
  std::vector<std::string> dropped;  // paths dropped onto the window, opened next frame
  std::string export_view_path;      // set: the render loop writes the active view as PNG
  std::string window_shot_path;      // set: the render loop writes the whole window (F12)
};

}  // namespace pl::app
