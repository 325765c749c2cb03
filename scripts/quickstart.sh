#!/usr/bin/env bash
# Quick start, the README's first command: install the packages ppl needs, build ppl alone
# (Release), and run the main job on the bundled coin example: check the model, then infer
# the coin's bias (four chains, the posterior summary). The tests, the benchmarks'
# reference programs and the fuzz targets are built by the second command,
# scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stages.sh
stage "install packages" bash scripts/install-deps.sh
stage "configure (Release)" configure build -DCMAKE_BUILD_TYPE=Release
stage "build ppl" cmake --build build -j2 --target ppl
./build/ppl check examples/coin/coin.ppl examples/coin/data.csv
./build/ppl infer examples/coin/coin.ppl examples/coin/data.csv
