// pathlab_test_app: the desktop app exactly as shipped (the pathlab_app library and its
// app_main), with test planners added to the registry it builds from, so screenshot tests can
// show what no shipped planner reports yet (heading wedges from a cells x headings search).
// The user-visible registry (Registry::builtin()) is untouched.
#include "app/app.hpp"
#include "fake_planners.hpp"

int main(int argc, char** argv) {
  static pl::Registry registry = pl::Registry::builtin();
  registry.add(pl::test::headings_planner_info());
  pl::app::use_registry(registry);
  return pl::app::app_main(argc, argv);
}
