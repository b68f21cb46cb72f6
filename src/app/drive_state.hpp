// The agent drives its path (issue 11, item 9): what the Drive section shares across views
// (every view's agent drives at once, on one clock) and each view's speed profile, rebuilt only
// when its run or the limits change.
#pragma once

#include <cstdint>

#include "core/drive.hpp"

namespace pl::app {

struct DriveState {
  bool show = false;     // draw the driving agents (on while the Drive section is used)
  bool playing = false;
  double time = 0;       // seconds since every agent set off
  double rate = 1;       // playback speed: simulated seconds per real second
  DriveLimits limits;
};

// One view's profile and what it was built for.
struct ViewDrive {
  DriveProfile profile;
  std::uint64_t generation = 0;  // View::trace_generation it was built from
  DriveLimits limits;
  bool built = false;
};

}  // namespace pl::app
