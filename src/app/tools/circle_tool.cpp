#include "app/tools/circle_tool.hpp"

#include <algorithm>

#include <imgui.h>

#include "app/app.hpp"
#include "app/widgets.hpp"

namespace pl::app {

void CircleTool::press(App& app, Vec2 m, double px) {
  editor::Document& doc = app.document.doc;
  const double tol = 6 * px;
  if (auto rim = editor::pick_circle_rim(app.scene(), m, tol)) {
    mode_ = Mode::Resize;
    circle_ = *rim;
    doc.begin_step("Resize circle");
  } else if (auto in = editor::pick_circle(app.scene(), m)) {
    mode_ = Mode::Move;
    circle_ = *in;
    grab_offset_ = app.scene().circles[*in].center() - m;
    doc.begin_step("Move circle");
  } else {
    mode_ = Mode::Create;
    grab_offset_ = {};
    doc.begin_step("Add circle");
    circle_ = editor::add_circle(doc, m, editor::kMinCircleRadius);
  }
  app.tool_state.selected_circle = circle_;
}

void CircleTool::drag(App& app, Vec2 m) {
  if (circle_ >= app.scene().circles.size()) return;  // undone meanwhile
  if (mode_ == Mode::Move)
    editor::move_circle(app.document.doc, circle_, m + grab_offset_);
  else
    editor::resize_circle(app.document.doc, circle_,
                          std::max(editor::kMinCircleRadius,
                                   distance(app.scene().circles[circle_].center(), m)));
}

void CircleTool::release(App& app, Vec2) { app.document.doc.end_step(); }

void CircleTool::preview(const App& app, DrawList& dl, Rgba colour, editor::Cell) const {
  const std::optional<std::size_t>& sel = app.tool_state.selected_circle;
  if (!sel || *sel >= app.scene().circles.size()) return;
  const Circle& k = app.scene().circles[*sel];
  dl.circle(k.center(), k.r, colour, 2.5f);
}

void CircleTool::panel(App& app) {
  const Scene& scene = app.scene();
  std::optional<std::size_t>& sel = app.tool_state.selected_circle;
  hint("drag on empty ground: new circle; drag inside: move; drag the rim: resize; Delete: remove");
  if (!sel || *sel >= scene.circles.size()) return;
  const std::size_t i = *sel;
  const Circle& c = scene.circles[i];
  ImGui::Text("circle %zu at (%.2f, %.2f)", i, c.x, c.y);
  float r = float(c.r);
  const bool changed = ImGui::DragFloat("circle radius", &r, 0.05f, float(editor::kMinCircleRadius), 50.f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::IsItemActivated()) app.document.doc.begin_step("Resize circle");
  if (changed) editor::resize_circle(app.document.doc, i, double(r));
  if (ImGui::IsItemDeactivated()) app.document.doc.end_step();
  if (ImGui::Button("Delete circle")) {
    editor::remove_circle(app.document.doc, i);
    sel.reset();
  }
}

void CircleTool::keys(App& app) {
  std::optional<std::size_t>& sel = app.tool_state.selected_circle;
  if (sel && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Delete), false) &&
      *sel < app.scene().circles.size()) {
    editor::remove_circle(app.document.doc, *sel);
    sel.reset();
  }
}

}  // namespace pl::app
