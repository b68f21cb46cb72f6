// The program's window: GLFW with a GL 3.3 core context loaded by glad, Dear ImGui on it, and
// the window callbacks that reach the App (dropped files, F12, closing with unsaved changes).
#pragma once

struct GLFWwindow;

namespace pl::app {

struct App;

// The framebuffer in pixels and its scale over ImGui units.
struct FrameSize {
  int width = 0, height = 0;
  float scale = 1;
};

// A window with vsync unless headless; nullptr (message printed) when GL 3.3 core is missing.
GLFWwindow* init_window(int width, int height, bool headless);
// ImGui on the window: style, backends; its layout file only when not headless.
void init_imgui(GLFWwindow* window, bool headless);
// The callbacks act on `app` from now on.
void install_callbacks(GLFWwindow* window, App& app);
FrameSize frame_size(GLFWwindow* window);
// Samples ImGui's font atlas texel for texel (nearest) while the framebuffer has one pixel per
// ImGui unit, and smoothly (linear, the backend's choice) otherwise. Call after the backend's
// NewFrame (which makes the atlas). See window.cpp for why.
void match_font_filter(const FrameSize& fb);
void shutdown(GLFWwindow* window);

}  // namespace pl::app
