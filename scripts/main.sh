#!/usr/bin/env bash
# The main job on a fresh machine: set up, build, train Virus War with the default config (~15 min) and print its evaluation.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "$root"
exec "$root/build/bin/boardlab" train --config configs/virus_war.yaml "$@"
