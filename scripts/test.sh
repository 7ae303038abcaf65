#!/usr/bin/env bash
# The test command of the README: installs what the tests need, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh
npm ci --no-audit --no-fund
npm test
