#!/usr/bin/env bash
# The main job on a fresh machine: set up, build, and play a Virus War game between two baseline players.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
"$root/build/bin/boardlab" play virus_war --players random,random --seed "${SEED:-1}"
