#include "app/window.hpp"

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "app/app.hpp"
#include "app/command_line.hpp"

namespace pl::app {

namespace {

void glfw_error(int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); }

App* app_of(GLFWwindow* w) { return static_cast<App*>(glfwGetWindowUserPointer(w)); }

// Files dropped onto the window open next frame (after the unsaved-changes question).
void on_drop(GLFWwindow* w, int count, const char** paths) {
  if (App* app = app_of(w); app && count > 0) app->ui.dropped.emplace_back(paths[0]);
}

// F12: the whole window as a PNG in the current directory. Caught in the key callback (then
// passed on to ImGui's) because ImGui 1.86 sees only key state per frame, and a press and
// release that arrive between two frames would be missed.
void on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
  App* app = app_of(w);
  if (app && key == GLFW_KEY_F12 && action == GLFW_PRESS) {
    char name[64];
    const std::time_t t = std::time(nullptr);
    std::strftime(name, sizeof name, "pathlab-%Y%m%d-%H%M%S.png", std::localtime(&t));
    app->ui.window_shot_path = name;
  }
}

// Closing the window with unsaved changes asks first.
void on_close(GLFWwindow* w) {
  App* app = app_of(w);
  if (!app || app->ui.quit_confirmed || app->ui.ignore_input || !app->document.doc.dirty()) return;
  glfwSetWindowShouldClose(w, GLFW_FALSE);
  app->request_quit();
}

}  // namespace

GLFWwindow* init_window(int width, int height, bool headless) {
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) return nullptr;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  // No depth or stencil buffer: nothing draws with them. (ImGui's draw data, rendered six
  // times a frame to measure it, cost llvmpipe 3.6 ms a render without them, 4.4 with.)
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  GLFWwindow* window = glfwCreateWindow(width, height, "pathlab", nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(headless ? 0 : 1);
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::fprintf(stderr, "pathlab: could not load OpenGL 3.3 core\n");
    return nullptr;
  }
  return window;
}

void init_imgui(GLFWwindow* window, bool headless) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  // Window layout persists in the user's config dir; automated runs neither read nor write it.
  static std::string ini = headless ? std::string() : config_file("imgui.ini");
  io.IniFilename = headless ? nullptr : ini.c_str();
  ImGui::StyleColorsDark();
  // Opaque popups and windows: dialogs over a busy map must stay readable.
  ImGui::GetStyle().Colors[ImGuiCol_PopupBg].w = 1.0f;
  ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 1.0f;
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

void install_callbacks(GLFWwindow* window, App& app) {
  glfwSetWindowUserPointer(window, &app);
  glfwSetDropCallback(window, on_drop);
  glfwSetWindowCloseCallback(window, on_close);
  glfwSetKeyCallback(window, on_key);
}

FrameSize frame_size(GLFWwindow* window) {
  FrameSize f;
  glfwGetFramebufferSize(window, &f.width, &f.height);
  const ImGuiIO& io = ImGui::GetIO();
  f.scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.f;
  return f;
}

// At one framebuffer pixel per ImGui unit, every glyph quad of the pixel-snapped default font
// covers its atlas rectangle texel for texel, and fills sample the atlas's white texel at its
// centre: a pixel's centre samples a texel's centre, where linear filtering returns that texel,
// so nearest draws the same text and fills. Only the outlines ImGui draws from its baked line
// texture can differ, by a few levels at their edges (at most 23 of 255 on the sample scene's
// legend swatches). Under a software rasteriser nearest costs a texel load a pixel where linear
// costs four and a blend: 2.3 of 54.4 M instructions a frame of a 1024x1024 view drawn anew
// every frame (docs/traces-and-frames.md, tenth round). Scaled (a HiDPI framebuffer), quads no
// longer meet texels one to one and the backend's linear filtering stays.
void match_font_filter(const FrameSize& fb) {
  static GLint current = 0;
  static ImTextureID texture = nullptr;
  const ImTextureID id = ImGui::GetIO().Fonts->TexID;
  if (!id) return;
  const GLint want = fb.scale == 1.f ? GL_NEAREST : GL_LINEAR;
  if (id == texture && want == current) return;
  GLint bound = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
  glBindTexture(GL_TEXTURE_2D, GLuint(reinterpret_cast<std::intptr_t>(id)));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, want);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, want);
  glBindTexture(GL_TEXTURE_2D, GLuint(bound));
  texture = id, current = want;
}

void shutdown(GLFWwindow* window) {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
}

}  // namespace pl::app
