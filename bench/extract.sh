#!/bin/sh
# Extraction quality + speed: pith's engine against reference extractors, same run, with the
# shared extract-eval harness, on both benchmarks:
#   1. the 181 pages of the article-extraction benchmark (4-shingle F1; pith and
#      readability-linkedom, 3 timed passes: the published speed ratio),
#   2. wcxb-dev, 1,497 pages of 7 types (word F1 per page type; pith, readability-linkedom
#      and defuddle-linkedom, 1 pass: quality), then the page-type classifier's accuracy.
#   npm run bench:extract                 # both (about 15 minutes on 2 cores)
#   npm run bench:extract -- --limit 30   # quick look while iterating
#   ONLY=article|wcxb npm run bench:extract
# Results (JSON, Markdown per page) go to bench/results/extract/{article,wcxb}/ (not committed).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
EVAL=${EXTRACT_EVAL_DIR:-$ROOT/../shared/tools/extract-eval}
WCXB=${WCXB_DIR:-$ROOT/../shared/bench/wcxb-dev}
ARTICLES=${ARTICLES_DIR:-$ROOT/../shared/bench/article-extraction}
if [ ! -d "$EVAL/node_modules" ]; then
  if [ -w "$EVAL" ]; then
    (cd "$EVAL" && npm install --no-audit --no-fund)
  else
    # a read-only shared checkout: run a private copy with its own dependencies (git-ignored)
    COPY=$ROOT/bench/.extract-eval
    if [ ! -d "$COPY/node_modules" ]; then
      rm -rf "$COPY" && mkdir -p "$COPY" && cp -R "$EVAL/." "$COPY/" && chmod -R u+w "$COPY"
      (cd "$COPY" && npm install --no-audit --no-fund)
    fi
    EVAL=$COPY
  fi
fi
ONLY=${ONLY:-}
if [ "$ONLY" != "wcxb" ]; then
  echo "== article-extraction benchmark (181 articles)"
  (cd "$EVAL" && node src/cli.mjs all \
    --extractors "$ROOT/bench/extract-adapter.mjs,readability-linkedom" --data "$ARTICLES" \
    --repeat "${REPEAT:-3}" --out "$ROOT/bench/results/extract/article" "$@")
fi
if [ "$ONLY" != "article" ]; then
  echo "== wcxb-dev (1,497 pages, 7 page types)"
  (cd "$EVAL" && node src/cli.mjs all \
    --extractors "$ROOT/bench/extract-adapter.mjs,readability-linkedom,defuddle-linkedom" \
    --data "$WCXB" --repeat "${WCXB_REPEAT:-1}" --bootstrap 200 --out "$ROOT/bench/results/extract/wcxb" "$@")
  echo "== page-type classifier"
  node "$ROOT/bench/extract-page-types.mjs" --data "$WCXB"
fi
