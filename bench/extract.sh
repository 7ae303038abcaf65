#!/bin/sh
# Extraction quality + speed (issue 5): pith's engine and readability-linkedom, same run, on
# the 181 pages of the article-extraction benchmark, with the shared extract-eval harness.
#   npm run bench:extract                 # 3 timed passes (the published numbers)
#   npm run bench:extract -- --limit 30   # quick look while iterating
# Results (JSON, Markdown per page) go to bench/results/extract/ (not committed).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
EVAL=${EXTRACT_EVAL_DIR:-$ROOT/../shared/tools/extract-eval}
if [ ! -d "$EVAL/node_modules" ]; then (cd "$EVAL" && npm install); fi
cd "$EVAL"
exec node src/cli.mjs all \
  --extractors "$ROOT/bench/extract-adapter.mjs,readability-linkedom" \
  --repeat "${REPEAT:-3}" --out "$ROOT/bench/results/extract" "$@"
