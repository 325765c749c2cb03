#!/usr/bin/env bash
# The README's second command: build everything the first did not (the test programs, the
# benchmarks' reference programs, the fuzz targets' replay programs) and run the whole
# suite on both cores. Extra arguments go to ctest (for example -R cli_ or -L mpi).
# BUILD_DIR picks another build directory (CI's sanitized build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stages.sh
dir=${BUILD_DIR:-build}
[ -e "$dir/CMakeCache.txt" ] || stage "configure (Release)" configure "$dir" -DCMAKE_BUILD_TYPE=Release
stage "build everything ($dir)" cmake --build "$dir" -j2
stage "run the tests ($dir)" ctest --test-dir "$dir" --output-on-failure -j2 "$@"
