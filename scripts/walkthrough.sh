#!/usr/bin/env bash
# The README's new-user walkthrough, driven by real mouse and key events: starts pathlab on a
# virtual X display, does what a new user does (new scene, paint a wall, place the agent, run
# A*, step back ten frames, make the agent bigger, compare with Annotated A*) and saves a
# screenshot after each step (the app's F12) into OUT_DIR.
#
#   scripts/walkthrough.sh [OUT_DIR]      (default: build/walkthrough)
#
# Needs Xvfb and xdotool (apt-get install xvfb xdotool). Not part of the test suite: it
# regenerates the README's pictures. Coordinates assume the default 1280x800 layout.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$(realpath -m "${1:-$here/build/walkthrough}")"
app="$here/build/pathlab"
[ -x "$app" ] || { echo "build the app first (scripts/build.sh build)" >&2; exit 2; }
command -v xdotool >/dev/null && command -v Xvfb >/dev/null ||
  { echo "needs Xvfb and xdotool: apt-get install xvfb xdotool" >&2; exit 2; }
mkdir -p "$out"
rm -f "$out"/pathlab-*.png

display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
cfg="$(mktemp -d)"  # a fresh config dir: no saved layout, recent files or autosaves
cleanup() { kill "$app_pid" 2>/dev/null || true; kill "$xvfb" 2>/dev/null || true; rm -rf "$cfg"; }
trap cleanup EXIT
sleep 1
export DISPLAY=$display
(cd "$out" && XDG_CONFIG_HOME="$cfg" exec "$app" --size 1280x800 >"$out/app.log" 2>&1) &
app_pid=$!
sleep 3
xdotool search --sync --name pathlab windowfocus --sync >/dev/null 2>&1 || true

# X drops key events sent in the same xdotool call as a pointer move (the key arrives before
# the window has seen the pointer enter, or between motion events), so keys are paced: the
# pointer moves first, the window gets time to see it, then each key goes with a delay.
pause() { sleep "${1:-0.15}"; }
keys_at() {  # X Y KEY...: move the pointer over (X, Y), then press the keys one by one
  xdotool mousemove "$1" "$2"
  pause
  shift 2
  xdotool key --delay 80 "$@"
  pause 0.2
}

count() { find "$out" -maxdepth 1 -name 'pathlab-*.png' | wc -l; }
shot() {  # NAME: F12 writes pathlab-<time>.png into $out; give it a stable name
  sleep 0.6
  local before
  before=$(count)
  keys_at 1000 760 F12
  for _ in $(seq 100); do
    [ "$(count)" -gt "$before" ] && break
    sleep 0.1
  done
  mv "$(find "$out" -maxdepth 1 -name 'pathlab-*.png' | head -1)" "$out/$1.png"
  echo "$out/$1.png"
}
click() { xdotool mousemove "$1" "$2"; pause; xdotool click 1; sleep 0.3; }

shot 0-sample
click 25 10                # File
click 40 33                # New scene
xdotool key --delay 80 2; sleep 0.3   # Brush (hard obstacle is the default paint)
xdotool mousemove 560 200; pause; xdotool mousedown 1
for y in $(seq 205 10 520); do xdotool mousemove 560 "$y"; sleep 0.02; done
xdotool mouseup 1
shot 1-wall
xdotool key --delay 80 8; sleep 0.2   # Agent tool: a click places the start
click 400 250
shot 2-agent
keys_at 1000 650 r; sleep 1   # run A* (view A)
click 26 36                # Plan tab
keys_at 1000 650 shift+Left   # ten frames back
shot 3-astar-back10
click 66 36                # Edit tab
# size slider: ctrl+click turns it into a text box for a typed value
xdotool mousemove 115 183; pause
xdotool keydown ctrl; pause 0.1
xdotool click 1; pause 0.1
xdotool keyup ctrl; pause
xdotool key --delay 80 ctrl+a; pause 0.1
xdotool type --delay 80 3; pause 0.1
xdotool key --delay 80 Return
shot 4-size3
click 205 10               # Compare
click 280 67               # A* vs Annotated A* (agent size)
sleep 1
click 26 36                # Plan tab
shot 5-compare
echo "screenshots in $out"
