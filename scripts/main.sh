#!/usr/bin/env bash
# The main job on a fresh machine: set up, build, train Virus War with the default config (~15 min) and print its evaluation.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
# Only what the command runs: 107 of the 217 compiles of a full build; the rest are tests and fuzz targets.
BOARDLAB_TARGET=boardlab_command "$root/scripts/build.sh"
cd "$root"
exec "$root/build/bin/boardlab" train --config configs/virus_war.yaml "$@"
