#include "core/observer.hpp"

namespace pl {

void SearchObserver::batch(std::span<const NodeEvent> events) {
  for (const NodeEvent& e : events) {
    switch (e.kind) {
      case NodeEvent::Kind::Open: open(e.node(), e.parent, e.g, e.h); break;
      case NodeEvent::Kind::Relax: relax(e.id, e.parent, e.g); break;
      case NodeEvent::Kind::Close: close(e.id); break;
      case NodeEvent::Kind::Test: test(*e.shape, e.parent != 0); break;
      case NodeEvent::Kind::Mark: mark(*e.shape, Role(e.parent)); break;
      case NodeEvent::Kind::Frame: frame(); break;
      case NodeEvent::Kind::FrameClose:
        frame();
        close(e.id);
        break;
    }
  }
}

const char* role_name(Role r) {
  switch (r) {
    case Role::Open: return "open";
    case Role::Closed: return "closed";
    case Role::Current: return "current";
    case Role::Candidate: return "candidate";
    case Role::Accepted: return "accepted";
    case Role::Rejected: return "rejected";
    case Role::Path: return "path";
    case Role::AbstractNode: return "abstract node";
    case Role::AbstractEdge: return "abstract edge";
    case Role::AbstractPath: return "abstract path";
    case Role::Cluster: return "cluster";
    case Role::Entrance: return "entrance";
    case Role::Transition: return "transition";
    case Role::Start: return "start";
    case Role::Goal: return "goal";
    case Role::Subgoal: return "subgoal";
    case Role::Obstacle: return "obstacle";
    case Role::Highlight: return "highlight";
    case Role::Count: break;
  }
  return "?";
}

}  // namespace pl
