#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/error.hpp"
#include "planners/planner.hpp"

namespace pl {

Query Query::from_agent(const Scene& scene, const Agent& a) {
  Query q;
  q.start = a.start;
  q.goal = a.goal;
  q.size = a.size;
  q.capability = scene.capability_of(a);
  q.radius = a.radius;
  q.turning_radius = a.turning_radius;
  q.can_reverse = a.can_reverse;
  return q;
}

const char* param_type_name(ParamDesc::Type t) {
  switch (t) {
    case ParamDesc::Type::Int: return "int";
    case ParamDesc::Type::Double: return "double";
    case ParamDesc::Type::Bool: return "bool";
    case ParamDesc::Type::Enum: return "enum";
  }
  return "?";
}

namespace {

bool parse_double(const std::string& s, double& out) {
  if (s.empty()) return false;
  const char* b = s.data();
  const char* e = b + s.size();
  auto [p, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && p == e && std::isfinite(out);
}

bool parse_bool(const std::string& s, bool& out) {
  if (s == "1" || s == "true" || s == "on" || s == "yes") return out = true, true;
  if (s == "0" || s == "false" || s == "off" || s == "no") return out = false, true;
  return false;
}

}  // namespace

const std::string& ParamSet::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw InputError("parameter '" + name + "' is not set");
  return it->second;
}

int ParamSet::get_int(const std::string& name) const {
  double v = 0;
  if (!parse_double(get(name), v)) throw InputError("parameter '" + name + "' is not a number");
  return static_cast<int>(v);
}

double ParamSet::get_double(const std::string& name) const {
  double v = 0;
  if (!parse_double(get(name), v)) throw InputError("parameter '" + name + "' is not a number");
  return v;
}

bool ParamSet::get_bool(const std::string& name) const {
  bool v = false;
  if (!parse_bool(get(name), v)) throw InputError("parameter '" + name + "' is not a boolean");
  return v;
}

namespace {

struct Registration {
  int order;
  void (*add)(Registry&);
};
// A function-local static: registrations run during static initialisation of other files, in an
// order the language leaves open.
std::vector<Registration>& registrations() {
  static std::vector<Registration> list;
  return list;
}

}  // namespace

PlannerRegistration::PlannerRegistration(int order, void (*add)(Registry&)) {
  registrations().push_back({order, add});
}

const Registry& Registry::builtin() {
  static const Registry r = [] {
    std::vector<Registration> list = registrations();
    std::stable_sort(list.begin(), list.end(),
                     [](const Registration& a, const Registration& b) { return a.order < b.order; });
    Registry reg;
    for (const Registration& x : list) x.add(reg);
    return reg;
  }();
  return r;
}

void Registry::add(PlannerInfo info) { planners_.push_back(std::move(info)); }

std::vector<std::string> Registry::readers_of(AgentInput input) const {
  std::vector<std::string> out;
  for (const PlannerInfo& p : planners_)
    if (reads(p.agent_inputs, input)) out.push_back(p.name);
  return out;
}

std::string ParamDesc::words() const {
  if (!label.empty()) return label;
  std::string out = name;
  for (char& c : out)
    if (c == '_') c = ' ';
  return out;
}

const char* coordinates_name(QueryCoordinates c) {
  return c == QueryCoordinates::Corners ? "corners" : "cells";
}

void Registry::set_reference(const std::string& planner, const std::string& optimal) {
  references_[planner] = optimal;
}

std::string Registry::reference_of(const std::string& planner) const {
  auto it = references_.find(planner);
  return it == references_.end() ? std::string() : it->second;
}

const PlannerInfo* Registry::find(const std::string& name) const {
  for (auto& p : planners_)
    if (p.name == name) return &p;
  return nullptr;
}

ParamSet Registry::check(const PlannerInfo& info,
                         const std::map<std::string, std::string>& values) const {
  std::map<std::string, std::string> out;
  for (auto& [k, v] : values) {
    const ParamDesc* d = nullptr;
    for (auto& p : info.params)
      if (p.name == k) d = &p;
    if (!d) {
      std::string known;
      for (auto& p : info.params) known += (known.empty() ? "" : ", ") + p.name;
      throw InputError("planner '" + info.name + "' has no parameter '" + k + "'" +
                       (known.empty() ? " (it has none)" : " (known: " + known + ")"));
    }
    switch (d->type) {
      case ParamDesc::Type::Int:
      case ParamDesc::Type::Double: {
        double x = 0;
        if (!parse_double(v, x))
          throw InputError("parameter '" + k + "': '" + v + "' is not a number");
        if (d->type == ParamDesc::Type::Int && x != std::floor(x))
          throw InputError("parameter '" + k + "': '" + v + "' is not an integer");
        if (x < d->min || x > d->max)
          throw InputError("parameter '" + k + "': " + v + " is outside [" +
                           std::to_string(d->min) + ", " + std::to_string(d->max) + "]");
        break;
      }
      case ParamDesc::Type::Bool: {
        bool b = false;
        if (!parse_bool(v, b)) throw InputError("parameter '" + k + "': '" + v + "' is not a boolean");
        break;
      }
      case ParamDesc::Type::Enum: {
        bool ok = false;
        std::string list;
        for (auto& c : d->choices) {
          ok |= (c == v);
          list += (list.empty() ? "" : "|") + c;
        }
        if (!ok) throw InputError("parameter '" + k + "': '" + v + "' is not one of " + list);
        break;
      }
    }
    out[k] = v;
  }
  for (auto& p : info.params)
    if (!out.count(p.name)) out[p.name] = p.default_value;
  return ParamSet(std::move(out));
}

std::unique_ptr<Planner> Registry::create(const std::string& name,
                                          const std::map<std::string, std::string>& values) const {
  const PlannerInfo* info = find(name);
  if (!info) {
    std::string known;
    for (auto& p : planners_) known += (known.empty() ? "" : ", ") + p.name;
    throw InputError("unknown planner '" + name + "' (known: " + known + ")");
  }
  return info->make(check(*info, values));
}

}  // namespace pl
