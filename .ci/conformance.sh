#!/usr/bin/env bash
# The official MCP conformance suite against `svc serve`'s Streamable HTTP endpoint (/mcp), for both
# protocol eras the daemon serves:
#   0.1.x against 2025-11-25 (sessions), expected failures in test/mcp/conformance-expected-failures.txt;
#   0.2.x with --requirements 2026-07-28 (stateless), in test/mcp/conformance-expected-failures-2026-07-28.txt.
# The suite cannot send an Authorization header, so svc runs on 127.0.0.1 (ephemeral port) with
# `serve.auth: none` set explicitly in a temp svc.yaml. The verdict comes from each scenario's
# checks.json (.ci/conformance-verdict.mjs), not from the suite's exit code, which counts fixture
# scenarios too. Needs Node >= 22. Usage: bash .ci/conformance.sh
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
SUITE_2025="0.1.16"
SUITE_2026="0.2.0-alpha.12"

work="$(mktemp -d)"
svc_pid=""
cleanup() {
  if [ -n "$svc_pid" ] && kill -0 "$svc_pid" 2>/dev/null; then kill "$svc_pid"; wait "$svc_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The suite's YAML baseline, built from a commented list (the list is the one place reasons live).
baseline() {
  echo "server:"
  grep -v '^\s*#' "$1" | awk 'NF { print "  - " $1 }'
}

# A real catalogue (the project's example API description), authentication explicitly off, its own
# socket and state folder, so a running daemon and the user's token are not touched.
cat > "$work/svc.yaml" <<EOF
serve:
  auth: none
specs:
  - $REPO/specs/bookshelf.yaml
EOF
XDG_STATE_HOME="$work/state" node bin/svc.js serve --config "$work/svc.yaml" --transport http --port 0 --socket "$work/svc.sock" 2> "$work/serve.log" &
svc_pid=$!
url=""
for _ in $(seq 1 100); do
  url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/serve.log" | head -n1 || true)"
  [ -n "$url" ] && break
  kill -0 "$svc_pid" 2>/dev/null || { cat "$work/serve.log" >&2; echo "error: svc serve exited early" >&2; exit 1; }
  sleep 0.2
done
[ -n "$url" ] || { cat "$work/serve.log" >&2; echo "error: svc serve printed no URL" >&2; exit 1; }
echo "svc serving at $url/mcp (serve.auth: none, loopback)"

status=0
run_suite() { # label, suite version, expected-failures file, extra args...
  local label="$1" version="$2" expected="$3"
  shift 3
  baseline "$expected" > "$work/expected-$label.yaml"
  echo "--- conformance $version ($label)"
  set +e
  npx --yes "@modelcontextprotocol/conformance@$version" server --url "$url/mcp" \
    --expected-failures "$work/expected-$label.yaml" -o "$work/results-$label" "$@" > "$work/suite-$label.log" 2>&1
  local suite_exit=$?
  set -e
  if [ ! -d "$work/results-$label" ]; then
    cat "$work/suite-$label.log" >&2
    echo "error: conformance $version wrote no results (exit $suite_exit)" >&2
    status=1
    return
  fi
  grep -E '^(Total|Not scored)' "$work/suite-$label.log" || true
  node .ci/conformance-verdict.mjs "$label" "$work/results-$label" "$expected" || status=1
}

run_suite 2025-11-25 "$SUITE_2025" test/mcp/conformance-expected-failures.txt
run_suite 2026-07-28 "$SUITE_2026" test/mcp/conformance-expected-failures-2026-07-28.txt --requirements 2026-07-28

if [ "$status" -ne 0 ]; then
  echo "conformance: FAILED (unexpected failures or stale expected-failures entries; see above)" >&2
  exit "$status"
fi
echo "conformance: passed for 2025-11-25 and 2026-07-28 (expected failures need the suite's fixtures only)"
