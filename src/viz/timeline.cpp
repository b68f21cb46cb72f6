#include "viz/timeline.hpp"

#include <algorithm>

namespace pl {

std::optional<std::size_t> find_break(const Trace& trace, std::size_t from, std::size_t to,
                                      std::span<const NodeBreak> breaks) {
  if (trace.frame_count() == 0 || breaks.empty()) return std::nullopt;
  to = std::min(to, trace.frame_count() - 1);
  // Node ids become the trace's dense indices once; a node the trace never saw cannot fire.
  struct Want {
    std::uint32_t index;
    bool on_open;
  };
  std::vector<Want> wants;
  for (const NodeBreak& b : breaks) {
    const std::uint32_t index = trace.index_of(b.id);
    if (index != kNoNode) wants.push_back({index, b.on_open});
  }
  if (wants.empty()) return std::nullopt;
  for (std::size_t k = from + 1; k <= to; ++k) {
    for (const TraceEvent& e : trace.frame_events(k)) {
      const bool open = e.kind == TraceEvent::Kind::Open;
      const bool close = e.kind == TraceEvent::Kind::Close;
      if (!open && !close) continue;
      for (const Want& w : wants)
        if (w.index == e.a && w.on_open == open) return k;
    }
  }
  return std::nullopt;
}

std::vector<NodeBreak> node_breaks(const Trace& trace, std::span<const CellBreak> breaks) {
  std::vector<NodeBreak> out;
  for (const CellBreak& b : breaks)
    for (const std::uint32_t id : trace.cell_node_ids(b.x, b.y, b.heading))
      out.push_back({id, b.on_open});
  return out;
}

std::optional<std::size_t> find_break(const Trace& trace, std::size_t from, std::size_t to,
                                      std::span<const CellBreak> breaks) {
  return find_break(trace, from, to, node_breaks(trace, breaks));
}

std::optional<BreakHit> find_break_hit(const Trace& trace, std::size_t from, std::size_t to,
                                       std::span<const CellBreak> breaks) {
  const std::optional<std::size_t> k = find_break(trace, from, to, breaks);
  if (!k) return std::nullopt;
  // Which breakpoint and node: the first of the frame's events that fires one.
  for (const TraceEvent& e : trace.frame_events(*k)) {
    const bool open = e.kind == TraceEvent::Kind::Open;
    if (!open && e.kind != TraceEvent::Kind::Close) continue;
    for (const CellBreak& b : breaks) {
      if (b.on_open != open) continue;
      for (const std::uint32_t id : trace.cell_node_ids(b.x, b.y, b.heading))
        if (trace.index_of(id) == e.a) return BreakHit{*k, b, e.a};
    }
  }
  return std::nullopt;  // not reached: find_break saw one of these events
}

std::optional<std::size_t> next_phase_frame(const Trace& trace, std::size_t frame) {
  for (const Trace::PhaseMarker& m : trace.phases())
    if (m.first_frame > frame) return m.first_frame;
  return std::nullopt;
}

std::optional<std::size_t> prev_phase_frame(const Trace& trace, std::size_t frame) {
  std::optional<std::size_t> best;
  for (const Trace::PhaseMarker& m : trace.phases())
    if (m.first_frame < frame) best = m.first_frame;
  return best;
}

}  // namespace pl
