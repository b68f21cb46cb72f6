#!/usr/bin/env bash
# README command 1: install what is missing, build, and launch pathlab on the built-in sample
# scene (assets/sample.json). Extra arguments go to pathlab (e.g. --scene FILE).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/setup.sh"
"$here/scripts/build.sh" "$here/build"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$here/build/pathlab" "$@"
fi
# No display (a server, a container): render the sample once under Xvfb and say where it went.
out="$here/build/sample.png"
xvfb-run -a -s "-screen 0 1280x800x24" "$here/build/pathlab" --frame end \
  --size 1280x800 --screenshot "$out" --exit "$@"
echo "run.sh: no display here; rendered the sample scene with its views' searches finished to $out"
