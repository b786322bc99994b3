#!/usr/bin/env bash
# Official Node.js binaries for the packaging test (test/packaging/installed-cli.test.ts), one per major
# given (e.g. `scripts/install-test-node.sh 22 26`), from the npm registry's node-<os>-<arch> packages,
# installed outside the checkout under ${XDG_CACHE_HOME:-$HOME/.cache}/corral-test/node-<major>.
# Idempotent: a major whose binary already runs is left alone. When the registry cannot be reached the
# major is skipped with a message, and the test then says that Node was not installed.
set -uo pipefail
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "install-test-node: no Node package for $(uname -s); skipped" >&2; exit 0 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "install-test-node: no Node package for $(uname -m); skipped" >&2; exit 0 ;;
esac
cache="${XDG_CACHE_HOME:-$HOME/.cache}/corral-test"
for major in "$@"; do
  dir="$cache/node-$major"
  node="$dir/node_modules/node-$os-$arch/bin/node"
  if "$node" --version >/dev/null 2>&1; then
    continue
  fi
  mkdir -p "$dir"
  # The package is the binary itself (bin/node): no install script is needed.
  if (cd "$dir" && npm install --no-save --no-audit --no-fund --ignore-scripts --prefix . \
    "node-$os-$arch@$major" >/dev/null 2>&1) && "$node" --version >/dev/null 2>&1; then
    echo "install-test-node: Node $("$node" --version) in $dir"
  else
    echo "install-test-node: node-$os-$arch@$major could not be installed (registry unreachable?); its packaging test will be skipped" >&2
  fi
done
exit 0
