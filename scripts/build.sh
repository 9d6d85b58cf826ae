#!/usr/bin/env bash
# Configures and builds boardlab into build/ (Release, warnings as errors, with MPI); extra args go to cmake.
#
# BOARDLAB_BUILD moves build/; BOARDLAB_TARGET builds one target instead of all (boardlab_command: the
# boardlab command alone, without the test and fuzz binaries).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BOARDLAB_BUILD:-$root/build}
# Debian's interpreter has numpy and torch; the python3 first on PATH may not.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=/usr/bin/python3 -DBOARDLAB_MPI=ON "$@" >/dev/null
cmake --build "$build" -j "$(nproc)" ${BOARDLAB_TARGET:+--target "$BOARDLAB_TARGET"}
