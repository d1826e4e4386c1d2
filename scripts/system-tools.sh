#!/usr/bin/env bash
# The system tools the test suite drives for real: ripgrep (grep parity), tmux (the terminal UI end to
# end), bubblewrap (the shell sandbox; its tests say SKIPPED where the kernel refuses user namespaces),
# chromium (the trace page's browser test, driven by playwright-core). Shared by `npm test` and .ci/run:
# missing ones are installed where that is possible (root with apt-get), otherwise it stops at once with
# one line naming the packages and the command that installs them.
set -euo pipefail

missing=()
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing the system tools the tests drive: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi

if command -v apt-get >/dev/null 2>&1; then how="sudo apt-get install -y ${missing[*]}"; else how="your package manager (on Debian or Ubuntu: apt-get install -y ${missing[*]})"; fi
echo "npm test: missing system tools the tests drive: ${missing[*]}. Install them first with: $how" >&2
exit 1
