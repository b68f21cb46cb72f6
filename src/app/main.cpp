// pathlab: the desktop app (everything is in the pathlab_app library; app_main.cpp has the
// program). A separate file so the test build (pathlab_test_app) reuses all of it with its own
// main that adds test planners to the registry first.
#include "app/app.hpp"

int main(int argc, char** argv) { return pl::app::app_main(argc, argv); }
