#!/usr/bin/env bash
# The whole test suite: static checks, build, then every test inside a PID namespace of its own,
# so a signalling bug cannot reach a process outside it and nothing started inside outlives it.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent lint
npm run --silent format:check
npm run --silent typecheck
npm run --silent build
bash scripts/electronegativity.sh
exec unshare --pid --fork --mount-proc --kill-child tini -- npx vitest run "$@"
