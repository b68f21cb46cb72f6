#!/usr/bin/env bash
# Installs the Debian packages pathlab needs, only those missing (idempotent). Needs root or sudo.
set -euo pipefail
PACKAGES=(build-essential cmake ninja-build pkg-config git python3
          nlohmann-json3-dev libcli11-dev libstb-dev libgtest-dev libbenchmark-dev
          libimgui-dev libglfw3-dev python3-glad xvfb xauth
          clang libclang-rt-14-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
