// The agent drives its path (issue 11, item 9): a speed profile over a path of lines and arcs
// with a maximum speed, an acceleration limit (the same for speeding up and braking) and a
// lateral acceleration limit on arcs (v <= sqrt(a_lat * r)); the vehicle stops where the gear
// changes (a piece's `reverse` flag flips) and where the heading jumps between pieces (a grid
// path's corner: the vehicle turns on the spot), and at both ends. From the profile: the travel
// time, and the distance, speed and pose at any time t (heading from pose_along, so a reversing
// piece is driven backwards with the vehicle still facing its heading).
#pragma once

#include <span>
#include <vector>

#include "core/geometry.hpp"

namespace pl {

struct DriveLimits {
  double max_speed = 4;      // map units per second
  double accel = 4;          // map units per second^2, speeding up and braking
  double lateral_accel = 2;  // map units per second^2, on arcs: v <= sqrt(lateral_accel * r)
  bool operator==(const DriveLimits&) const = default;
};

// True when every limit is finite and > 0.
bool drive_limits_valid(const DriveLimits& l);

// A heading change between two pieces larger than this (radians) is a corner: stop there.
inline constexpr double kDriveCornerTolerance = 1e-3;

class DriveProfile {
 public:
  DriveProfile() = default;
  // Invalid limits or an empty path give an empty profile (travel_time 0, valid() false).
  DriveProfile(std::span<const PathPiece> pieces, const DriveLimits& limits);

  bool valid() const { return !legs_.empty(); }
  double travel_time() const { return travel_time_; }
  double length() const { return length_; }
  // Stops along the way (gear changes and corners; not the two ends).
  int stops() const { return stops_; }
  // Clamped to [0, travel_time]. Distance and speed are 0 for an empty profile.
  double distance_at(double t) const;
  double speed_at(double t) const;
  // Requires valid().
  Pose pose_at(double t) const;
  // The speed cap at each junction after both passes (size pieces + 1), for tests and drawing.
  const std::vector<double>& junction_speeds() const { return junction_; }

 private:
  // A stretch of constant acceleration: from time t0 at distance s0 with speed v0.
  struct Leg {
    double t0, s0, v0, a, duration;
  };
  std::vector<PathPiece> pieces_;
  std::vector<Leg> legs_;
  std::vector<double> junction_;
  double travel_time_ = 0, length_ = 0;
  int stops_ = 0;
  const Leg* leg_at(double t) const;
};

}  // namespace pl
