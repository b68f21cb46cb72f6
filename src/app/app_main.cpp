// pathlab: the desktop app's program (app_main, which main.cpp calls): Dear ImGui's canonical
// main loop and nothing else. The command line is command_line.hpp, the window and its
// callbacks window.hpp, the parts of a frame frame.hpp, and the screenshot and benchmark modes
// automation.hpp.
#include <glad/gl.h>  // before GLFW, which would include the system's GL header
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <string>
#include <utility>

#include "app/app.hpp"
#include "app/automation.hpp"
#include "app/command_line.hpp"
#include "app/frame.hpp"
#include "app/window.hpp"

int pl::app::app_main(int argc, char** argv) {
  const Options opt = parse_command_line(argc, argv);
  const bool headless = opt.headless();

  // Init.
  GLFWwindow* window = init_window(opt.width, opt.height, headless);
  if (!window) return 1;
  init_imgui(window, headless);

  int status = 0;
  {
    App app;
    if (const int st = setup_app(app, opt); st != 0) {
      shutdown(window);
      return st;
    }
    install_callbacks(window, app);
    Automation automation(opt);
    std::string title;  // the window's title as last set
    while (!glfwWindowShouldClose(window)) {
      // Poll (or wait: nothing moves on screen between events when idle).
      automation.frame_begin();
      if (headless || app.busy()) glfwPollEvents();
      else glfwWaitEventsTimeout(0.25);
      if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
        glfwWaitEvents();  // sleep while minimized
        continue;
      }
      if (app.poll_runs() && !app.any_run()) seek_requested_frame(app, opt);
      app.poll_seeks();
      if (app.ui.quit_confirmed) glfwSetWindowShouldClose(window, GLFW_TRUE);
      if (std::string t = window_title(app); t != title) glfwSetWindowTitle(window, (title = std::move(t)).c_str());
      refresh_runs(app);

      // New frame.
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      const FrameSize fb = frame_size(window);
      match_font_filter(fb);

      // What moves by itself (playback, driving, a benchmark's scrub) moves first, so the
      // panels and the views show the same frame. Then the panels, the map views' input and what
      // they draw.
      const ImGuiIO& io = ImGui::GetIO();
      app.tick(io.DeltaTime);
      automation.move_timeline(app);
      main_menu(app);
      shortcuts(app);
      panel_side(app);
      layout_map_area(app, fb);
      panel_compare(app);
      panel_status(app, 0, io.DisplaySize.y - kStatusHeight, io.DisplaySize.x, kStatusHeight);
      map_view_input(app);
      automation.adjust_views(app);
      dialogs(app);
      file_dialogs(app);
      map_view_build(app);
      view_titles(app, fb.scale);

      // Render.
      ImGui::Render();
      render_views(app, fb);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      if (!automation.after_render(app, window, fb)) status = 1;
      write_window_shot(app, fb);

      // Swap.
      glfwSwapBuffers(window);
      automation.frame_end(window, app);
    }
    if (!headless) save_settings(app, config_file("settings.json"));
    automation.report(app);
  }

  // Shutdown.
  shutdown(window);
  return status;
}
