// A cell address shared by the editor's tools and camera: (column, row) from the top-left,
// as everywhere in pathlab (DESIGN.md section 4).
#pragma once

namespace pl::editor {

struct Cell {
  int x = 0, y = 0;
  bool operator==(const Cell&) const = default;
};

}  // namespace pl::editor
