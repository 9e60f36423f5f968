#!/usr/bin/env bash
# Makes sure a program seatflow needs from the machine's packages is there:
#   scripts/ensure-package.sh PROGRAM APT_PACKAGE "what it is for" ["how else to get it"]
# PROGRAM is a name on the PATH or an absolute path. Installs APT_PACKAGE where it can (root, or passwordless sudo,
# with apt-get); else says what to do and exits 1.
set -euo pipefail
program="$1" package="$2" purpose="$3" otherwise="${4:-}"

if [[ "$program" == /* ]]; then [ -x "$program" ] && exit 0; else command -v "$program" >/dev/null 2>&1 && exit 0; fi

install_cmd="apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $package"
if command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    echo "seatflow: installing $package from the machine's packages ($purpose)..." >&2
    bash -c "$install_cmd" >&2
    exit 0
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "seatflow: installing $package with sudo ($purpose)..." >&2
    sudo bash -c "$install_cmd" >&2
    exit 0
  fi
fi

{
  echo "seatflow: $program is missing ($purpose), and this script cannot install it here."
  echo "  Debian/Ubuntu:  sudo apt-get install $package"
  if [ -n "$otherwise" ]; then echo "  $otherwise"; fi
} >&2
exit 1
