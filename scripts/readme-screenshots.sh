#!/usr/bin/env bash
# Takes the README's pictures (docs/overview-popover.png at 420 × 700, docs/timeline.png and
# docs/incidents.png at 1280 × 800) from the current UI: the triage UI test's scene (a real
# `corral serve`, a fake agent leaking a dev server, a busy loop and a sleep, real Chromium) and the
# incidents UI test's 1,000 stored incidents, in a PID namespace of its own as the suite runs.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build
CORRAL_README_SCREENSHOTS=1 unshare --pid --fork --mount-proc --kill-child tini -- \
  npx vitest run test/e2e/triage-ui.test.ts test/e2e/incidents-ui.test.ts
