#!/usr/bin/env bash
# Quick start: install dependencies, build in Release, and run the main job on the
# bundled coin example (check the model, then simulate from its prior).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2
./build/ppl check examples/coin/coin.ppl examples/coin/data.csv
./build/ppl simulate examples/coin/coin.ppl examples/coin/data.csv --draws 5 --seed 1
