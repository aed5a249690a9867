#!/usr/bin/env bash
# What the tests need from the machine besides uv and npm (Debian packages), installed only when missing:
# Debian's Chromium and CJK fonts for the end-to-end tests (nothing downloads a browser), GNU gettext
# for the translation catalogue test (makemessages), zbar-tools (optional) to read printed QR codes.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; fi
fi
missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || missing+=(fonts-noto-cjk)
{ command -v xgettext >/dev/null && command -v msgmerge >/dev/null; } || missing+=(gettext)
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "test-deps: missing ${missing[*]}; install them with your system's package manager" >&2
    exit 1
  fi
  echo "test-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v zbarimg >/dev/null && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq zbar-tools >/dev/null 2>&1 || true
fi
