#!/usr/bin/env bash
# Installs the build dependencies from Debian 12 packages (run as root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  g++ cmake make libboost-dev libeigen3-dev doctest-dev libcli11-dev libfmt-dev \
  nlohmann-json3-dev zlib1g-dev libedit-dev python3 >/dev/null
