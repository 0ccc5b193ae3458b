#!/usr/bin/env bash
# Mutation testing of the folders that hold the user's credentials and face clients: src/invoke and
# src/mcp, each with its own breaking threshold (Stryker thresholds.break), so CI fails when a
# change leaves a guard that no test defends. A proposal: not called from .ci/run (see TESTING.md
# for the measured times).
#
#   bash .ci/mutation.sh                      every mutant of src/invoke and src/mcp
#   MUTATION_MODE=changed bash .ci/mutation.sh
#                                             only the .ts files of those folders changed since
#                                             MUTATION_BASE (default HEAD~1); nothing changed: skip
#   MUTATION_FOLDERS="src/invoke" ...         other folders (space-separated)
#   MUTATION_BREAK=90                         the score below which the run fails
#   MUTATION_TIMEOUT=1200                     seconds before the whole step is stopped (and fails)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

MODE="${MUTATION_MODE:-full}"
FOLDERS="${MUTATION_FOLDERS:-src/invoke src/mcp}"
BREAK="${MUTATION_BREAK:-90}"
BASE="${MUTATION_BASE:-HEAD~1}"
TIMEOUT="${MUTATION_TIMEOUT:-1200}"

# Node >= 22.22, as .ci/run sets it up (this script may also run alone).
NODE24_PREFIX="$HOME/.cache/node24"
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=22)?0:1)' 2>/dev/null; then
  export PATH="$NODE24_PREFIX/node_modules/.bin:$PATH"
fi
[ -x node_modules/.bin/stryker ] || npm ci --no-audit --no-fund --loglevel=error

start=$(date +%s)
status=0
for folder in $FOLDERS; do
  target="$folder"
  if [ "$MODE" = changed ]; then
    changed=$(git diff --name-only --diff-filter=AM "$BASE" -- "$folder" | grep '\.ts$' | paste -sd, - || true)
    if [ -z "$changed" ]; then
      echo "mutation: no .ts file of $folder changed since $BASE; skipped"
      continue
    fi
    target="$changed"
  fi
  name=$(echo "$folder" | tr '/' '-')
  left=$((TIMEOUT - ($(date +%s) - start)))
  if [ "$left" -le 0 ]; then
    echo "mutation: out of time before $folder (MUTATION_TIMEOUT=${TIMEOUT}s)" >&2
    exit 1
  fi
  echo "==> mutation: $target (break below $BREAK%)"
  # --force: CI starts from a fresh clone; the incremental file only names where the report goes.
  if ! SVC_MUTATE="$target" SVC_MUTATION_BREAK="$BREAK" SVC_MUTATION_INCREMENTAL="reports/ci-$name.json" \
    timeout --kill-after=30 "$left" npx stryker run --force --tempDirName ".stryker-tmp-$name" \
    --reporters clear-text,progress-append-only,json; then
    echo "mutation: $folder failed (score below $BREAK%, a test run error, or out of time)" >&2
    status=1
  fi
  # A run stopped by the timeout cannot clean its sandbox itself.
  rm -rf ".stryker-tmp-$name"
done
echo "mutation: done in $(( $(date +%s) - start ))s"
exit "$status"
