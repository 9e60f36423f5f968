#!/usr/bin/env bash
# seatflow needs a redis-server binary for its private Redis (and its tests) unless REDIS_URL points at one.
# Installs it from the machine's packages where it can (root or passwordless sudo with apt-get); else says what to do.
set -euo pipefail

if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi

install_cmd="apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server"
if command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    echo "seatflow: installing redis-server from the machine's packages..." >&2
    bash -c "$install_cmd" >&2
    exit 0
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "seatflow: installing redis-server with sudo..." >&2
    sudo bash -c "$install_cmd" >&2
    exit 0
  fi
fi

cat >&2 <<'MSG'
seatflow: redis-server is not installed, and this script cannot install it here.
  Debian/Ubuntu:  sudo apt-get install redis-server
  macOS:          brew install redis
  Or point seatflow at an existing Redis with REDIS_URL=redis://host:6379 (tests still need redis-server).
MSG
exit 1
