#!/usr/bin/env bash
# Writes python/boardlab/_boardlab.pyi and _boardlab_nn.pyi, the extension modules' stubs for editors and type checkers, from the built modules (mypy's stubgen); run after changing a binding and building.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The same command as tests/python/test_stubs.py, which fails while the stubs are stale.
# The build puts the modules into python/boardlab (python/CMakeLists.txt).
PYTHONPATH="$root/python" /usr/bin/python3 -c 'from mypy.stubgen import main; main()' -q \
  -m boardlab._boardlab -m boardlab._boardlab_nn -o "$out"
cp "$out/boardlab/_boardlab.pyi" "$out/boardlab/_boardlab_nn.pyi" "$root/python/boardlab/"
echo "stubs written to python/boardlab/"
