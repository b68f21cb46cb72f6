// Timeline queries over a recorded trace, for the app's breakpoints and phase jumps (headless,
// so tests drive them): where does the search next open or expand a given node, or a node
// standing on a given cell (through the trace's node spaces), where does the next or previous
// phase begin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "viz/trace.hpp"

namespace pl {

// "Stop when node `id` is opened" (on_open) or "... expanded" (closed).
struct NodeBreak {
  std::uint32_t id = kNoNode;
  bool on_open = false;
  bool operator==(const NodeBreak&) const = default;
};

// "Stop when a node standing on cell (x, y) is opened (on_open) or expanded": any node of the
// cell (heading < 0: its Cells node, or any of its headings in a cells x headings space), or
// only the node of heading index `heading`. What stands on a cell is read from the trace's
// declared node spaces, never from the ids themselves.
struct CellBreak {
  int x = 0, y = 0;
  int heading = -1;
  bool on_open = false;
  bool operator==(const CellBreak&) const = default;
};

// The node breakpoints the cell breakpoints stand for in `trace` (Trace::cell_node_ids).
std::vector<NodeBreak> node_breaks(const Trace& trace, std::span<const CellBreak> breaks);

// The first frame k with from < k <= to (to is clamped to the last frame) whose events open
// or close a node named by a breakpoint; nullopt when none does. Cost: the events of the
// frames scanned, so a player checks only the frames it is about to show.
std::optional<std::size_t> find_break(const Trace& trace, std::size_t from, std::size_t to,
                                      std::span<const NodeBreak> breaks);
// The same for cell breakpoints.
std::optional<std::size_t> find_break(const Trace& trace, std::size_t from, std::size_t to,
                                      std::span<const CellBreak> breaks);

// A breakpoint that fired: the frame, which breakpoint, and the node (its index in the trace:
// FrameState::node(node) names it).
struct BreakHit {
  std::size_t frame = 0;
  CellBreak breakpoint;
  std::uint32_t node = kNoNode;
};
// The first breakpoint firing at a frame k with from < k <= to, as find_break.
std::optional<BreakHit> find_break_hit(const Trace& trace, std::size_t from, std::size_t to,
                                       std::span<const CellBreak> breaks);

// The first frame of the next phase after `frame`, or of the phase before the current one's
// start (when `frame` is the current phase's first frame) / the current phase's start.
std::optional<std::size_t> next_phase_frame(const Trace& trace, std::size_t frame);
std::optional<std::size_t> prev_phase_frame(const Trace& trace, std::size_t frame);

}  // namespace pl
