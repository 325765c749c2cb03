#!/usr/bin/env bash
# Installs the build dependencies from Debian 12 packages (run as root); does nothing when
# they are all installed already. ninja-build is optional (the build uses make without it)
# but keeps both cores busy across libraries.
set -euo pipefail
packages=(g++ cmake make ninja-build libboost-dev libeigen3-dev doctest-dev libcli11-dev libfmt-dev
          nlohmann-json3-dev zlib1g-dev libedit-dev liblbfgspp-dev python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} = 0 ]; then
  echo "install-deps: every package is installed already"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
