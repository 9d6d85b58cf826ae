#!/usr/bin/env bash
# Builds and runs every test on a fresh machine: the full suite (short 3-rank MPI jobs included), the torch-free tests under ASan+UBSan, then a short fuzz of every target.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
start=$SECONDS
"$root/scripts/setup.sh"

echo "== build (Release) and run every test (set-up, the command's build included, took $((SECONDS - start)) s)"
"$root/scripts/build.sh"
echo "-- built at $((SECONDS - start)) s"
ctest --test-dir "$root/build" --output-on-failure -j "$(nproc)"

echo "== torch-free tests under AddressSanitizer and UndefinedBehaviorSanitizer (at $((SECONDS - start)) s)"
BOARDLAB_BUILD="$root/build-sanitize" "$root/scripts/build.sh" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBOARDLAB_SANITIZE=ON -DBOARDLAB_PYTHON=OFF -DBOARDLAB_TORCH=OFF
echo "-- built at $((SECONDS - start)) s"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$root/build-sanitize" --output-on-failure -j "$(nproc)"

echo "== every fuzz target for 12 s (libFuzzer, ASan+UBSan), its regression inputs first (at $((SECONDS - start)) s)"
"$root/scripts/fuzz.sh" 12
echo "== all tests passed in $((SECONDS - start)) s"
