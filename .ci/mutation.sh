#!/usr/bin/env bash
# Mutation gate for the folders that hold the user's credentials and face clients (src/invoke,
# src/mcp): a Stryker run per folder with thresholds.break, so a change that leaves a guard no test
# defends fails CI. A full run of these folders takes hours on two cores, so CI mutates only the
# lines of .ts files changed since the commit of the folder's last recorded full run
# (.ci/mutation-base), under a hard time cap. See TESTING.md ("Mutation testing in CI").
#
#   bash .ci/mutation.sh                  CI: lines changed since .ci/mutation-base; nothing changed: skipped
#   MUTATION_SCOPE=files ...              whole changed files instead of their changed lines
#   MUTATION_MODE=full bash .ci/mutation.sh
#                                         every mutant of each folder, resumable (reports/inc-<folder>.json)
#   MUTATION_MODE=full MUTATION_RECORD=1 bash .ci/mutation.sh
#                                         ... and, when a folder passes on a clean checkout, writes HEAD
#                                         into .ci/mutation-base for it (commit that file)
#   MUTATION_FOLDERS="src/invoke"         other folders (space-separated)
#   MUTATION_BASE=<commit>                compare with this commit instead of .ci/mutation-base
#   MUTATION_BREAK=90                     the score below which a folder fails
#   MUTATION_TIMEOUT=1080                 seconds for the whole step (changed mode); past it the step fails
#   MUTATION_CONCURRENCY=2                Stryker test processes
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

MODE="${MUTATION_MODE:-changed}"
FOLDERS="${MUTATION_FOLDERS:-src/invoke src/mcp}"
BREAK="${MUTATION_BREAK:-90}"
CONCURRENCY="${MUTATION_CONCURRENCY:-2}"
BASE_FILE=".ci/mutation-base"
case "$MODE" in
  changed) TIMEOUT="${MUTATION_TIMEOUT:-1080}" ;;
  full) TIMEOUT="${MUTATION_TIMEOUT:-86400}" ;;
  *) echo "mutation: MUTATION_MODE must be 'changed' or 'full', not '$MODE'" >&2; exit 2 ;;
esac

# Node >= 22.22, as .ci/run sets it up (this script may also run alone).
NODE24_PREFIX="$HOME/.cache/node24"
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=22)?0:1)' 2>/dev/null; then
  export PATH="$NODE24_PREFIX/node_modules/.bin:$PATH"
fi
[ -x node_modules/.bin/stryker ] || npm ci --no-audit --no-fund --loglevel=error

# Every sandbox (and the compile cache of its test processes) lives in one folder per run, removed
# on any exit, and every process a run started is ended with it: a run stopped by the time cap
# cannot clean up after itself.
TMP_DIRS=()
RUNNERS=()
cleanup() {
  for r in "${RUNNERS[@]}"; do kill -KILL -- "-$r" 2>/dev/null || true; done
  for d in "${TMP_DIRS[@]}"; do rm -rf "$d"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

base_of() { # folder -> commit of its last recorded full run
  if [ -n "${MUTATION_BASE:-}" ]; then echo "$MUTATION_BASE"; return; fi
  [ -f "$BASE_FILE" ] && awk -v f="$1" '$1 == f { print $2; exit }' "$BASE_FILE"
}

# The lines of each .ts file of a folder that differ from the base, as Stryker ranges
# (`src/invoke/read.ts:10-24,...`; MUTATION_SCOPE=files: whole files). A hunk that only deletes
# lines gives the two lines around the cut; one that only adds or changes comments gives nothing.
changed_lines() { # base folder
  local files
  files=$(git diff --name-only --diff-filter=AMR "$1" -- "$2" | grep '\.ts$' || true)
  [ -n "$files" ] || return 0
  if [ "${MUTATION_SCOPE:-lines}" = files ]; then echo "$files" | paste -sd, -; return 0; fi
  for f in $files; do
    # A hunk whose added lines are all blank or comments has no mutant: it is left out.
    git diff -U0 "$1" -- "$f" | awk -v f="$f" '
      function flush() { if (range != "" && code) print range; range = "" }
      /^@@/ {
        flush()
        split($3, a, ","); start = substr(a[1], 2) + 0; n = (a[2] == "" ? 1 : a[2] + 0)
        if (n == 0) { from = (start > 0 ? start : 1); to = start + 1; code = 1 } else { from = start; to = start + n - 1; code = 0 }
        range = f ":" from "-" to
        next
      }
      /^\+/ && !/^\+\+\+ / { line = substr($0, 2); if (line !~ /^[ \t]*($|\/\/|\/\*|\*)/) code = 1 }
      END { flush() }'
  done | paste -sd, -
}

start=$(date +%s)
status=0
for folder in $FOLDERS; do
  name=$(echo "$folder" | tr '/' '-')
  target="$folder"
  if [ "$MODE" = changed ]; then
    base=$(base_of "$folder" || true)
    if [ -z "$base" ]; then
      echo "mutation: $folder has no recorded full run in $BASE_FILE; record one (MUTATION_MODE=full MUTATION_RECORD=1)" >&2
      status=1
      continue
    fi
    if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
      echo "mutation: commit $base (the base of $folder) is not in this clone; fetch the full history (git fetch --unshallow)" >&2
      status=1
      continue
    fi
    target=$(changed_lines "$base" "$folder")
    if [ -z "$target" ]; then
      echo "mutation: $folder: skipped (no code line of its .ts files changed since ${base:0:12}, its last recorded full run)"
      continue
    fi
  fi
  left=$((TIMEOUT - ($(date +%s) - start)))
  if [ "$left" -le 0 ]; then
    echo "mutation: out of time before $folder (MUTATION_TIMEOUT=${TIMEOUT}s)" >&2
    status=1
    break
  fi
  tmp=".stryker-tmp-ci-$name"
  TMP_DIRS+=("$tmp")
  if [ "$MODE" = full ]; then
    incremental="reports/inc-$name.json"   # a stopped full run resumes from here
  else
    incremental="$tmp/incremental.json"    # CI: from nothing, kept nowhere
  fi
  echo "==> mutation: $target (break below $BREAK%, ${left}s left)"
  folder_start=$(date +%s)
  rc=0
  SVC_MUTATE="$target" SVC_MUTATION_BREAK="$BREAK" SVC_MUTATION_CONCURRENCY="$CONCURRENCY" \
    SVC_MUTATION_INCREMENTAL="$incremental" NODE_COMPILE_CACHE="$REPO/$tmp/compile-cache" \
    timeout --kill-after=20 "$left" node_modules/.bin/stryker run --tempDirName "$tmp" \
    --reporters clear-text,progress-append-only${MUTATION_REPORTERS:+,$MUTATION_REPORTERS} &
  RUNNERS+=("$!")
  wait "$!" || rc=$?
  # timeout leads its own process group. A test process whose mutant loops forever outlives the
  # Stryker worker that was stopped (a blocked event loop never runs its SIGTERM handler): end the
  # whole group.
  kill -KILL -- "-${RUNNERS[-1]}" 2>/dev/null || true
  took=$(( $(date +%s) - folder_start ))
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "mutation: $folder: out of time after ${took}s (MUTATION_TIMEOUT=${TIMEOUT}s): too many mutants for this step; run the full run and record it" >&2
    status=1
  elif [ "$rc" -ne 0 ]; then
    echo "mutation: $folder: failed after ${took}s (score below $BREAK%, or a test run error: see above)" >&2
    status=1
  else
    echo "mutation: $folder: passed in ${took}s"
    if [ "$MODE" = full ] && [ "${MUTATION_RECORD:-}" = 1 ]; then
      if [ -n "$(git status --porcelain -- src test)" ]; then
        echo "mutation: $folder not recorded: src/ or test/ has uncommitted changes" >&2
      else
        head=$(git rev-parse HEAD)
        touch "$BASE_FILE"
        { grep -v "^$folder " "$BASE_FILE" || true; echo "$folder $head $(date -u +%Y-%m-%d) full run ${took}s"; } > "$BASE_FILE.new"
        mv "$BASE_FILE.new" "$BASE_FILE"
        echo "mutation: recorded $folder at ${head:0:12} in $BASE_FILE (commit it)"
      fi
    fi
  fi
done
echo "mutation: done in $(( $(date +%s) - start ))s"
exit "$status"
