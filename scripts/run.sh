#!/usr/bin/env bash
# README command 1: install what is missing, build, and launch pathlab on the built-in sample.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/setup.sh"
"$here/scripts/build.sh" "$here/build"
# Until the desktop app lands, the CLI answers the sample scene's query.
"$here/build/pathlab-cli" path "$here/assets/sample.json" --planner annotated-astar --agent 1 "$@"
