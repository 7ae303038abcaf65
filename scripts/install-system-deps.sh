#!/usr/bin/env bash
# Debian packages the test suite needs. Idempotent: installs only what is missing.
#   chromium — JavaScript rendering (`render`, src/render/) and the playground browser test;
#              playwright-core drives it; never a downloaded browser
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
fi
