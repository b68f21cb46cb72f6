// The open document and what belongs with it: the editable scene (editor::Document, so every
// edit can be undone), where it came from, the last file message, the benchmark scenario loaded
// with it, and the clearance computed from its map.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/clearance.hpp"
#include "core/io.hpp"
#include "editor/document.hpp"

namespace pl::app {

struct DocumentState {
  editor::Document doc;
  std::string scene_path;       // file the document was opened from or saved to
  std::string opened_path;      // the file last opened, of any kind (.map, .scen, PNG): the title
  std::string load_error;       // the last failed load or save, shown until the next success
  std::string status_message;   // the last successful file operation
  // The .map file the map was read from and the map's state then: a save references it only
  // while the map is unchanged, and never writes the .map.
  std::string map_source;
  std::uint64_t map_source_uid = 0, map_source_version = 0;
  // A loaded .scen: its problems (pick one to set the agent's start and goal).
  std::optional<Scenario> scenario;
  std::string scenario_path;
  int scenario_pick = -1;
  // Clearance of the map per capability and metric (overlay, status bar).
  ClearanceCache clearance_cache;
};

}  // namespace pl::app
