#!/usr/bin/env bash
# Doyensec's Electronegativity over the Electron code and the renderer page. Any finding fails the
# run, except four that only ask a human to review what they found, and were reviewed (README,
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
npx electronegativity -i "$scan/app" -r -v false -e 39.8.10 -x preloadjscheck,cspglobalcheck,cspjscheck,csphtmlcheck \
  -o "$scan/report.csv" >/dev/null 2>&1
findings=$(tail -n +2 "$scan/report.csv" | grep -c . || true)
if [ "$findings" -gt 0 ]; then
  echo "electronegativity: $findings finding(s):" >&2
  cat "$scan/report.csv" >&2
  exit 1
fi
echo "electronegativity: no findings in main/electron, preload, renderer/index.html"
