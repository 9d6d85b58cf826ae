#!/usr/bin/env bash
# Installs whatever Debian packages boardlab needs and this machine lacks (as root or via sudo), then boardlab itself, editable, into the clone's .venv/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
mapfile -t wanted < <(grep -v '^#' "$here/debian-packages.txt" | grep -v '^$')
missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]} == 0)); then
  echo "setup: all ${#wanted[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  # Without --no-install-recommends LibTorch pulls in GTK, Qt and mesa.
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Debian's python3 is externally managed (PEP 668): pip installs into a venv made from it, which
# sees Debian's numpy, torch and pytest through --system-site-packages. The install is editable:
# .venv points at python/, so it is redone only when the packaging files change (or the clone moved).
venv="$root/.venv"
stamp="$venv/boardlab-installed"
want="$root $(cat "$root/pyproject.toml" "$root/setup.py" | sha256sum | cut -d' ' -f1)"
if [[ -x "$venv/bin/boardlab" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  echo "setup: boardlab installed in .venv (. .venv/bin/activate)"
  exit 0
fi
/usr/bin/python3 -m venv --system-site-packages "$venv"
# Built here, where its progress shows; pip's build step (setup.py) then finds the modules built.
BOARDLAB_TARGET=boardlab_command "$root/scripts/build.sh"
# Offline: every dependency is a Debian package.
"$venv/bin/python3" -m pip install -q --no-build-isolation --no-index -e "$root"
echo "$want" >"$stamp"
echo "setup: boardlab installed in .venv, editable (. .venv/bin/activate)"
