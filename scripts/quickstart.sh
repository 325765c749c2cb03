#!/usr/bin/env bash
# Quick start: install dependencies, build in Release, and run the main job on the
# bundled coin example: check the model, then infer the coin's bias (four chains, the
# posterior summary).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2
./build/ppl check examples/coin/coin.ppl examples/coin/data.csv
./build/ppl infer examples/coin/coin.ppl examples/coin/data.csv
