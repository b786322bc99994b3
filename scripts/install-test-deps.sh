#!/usr/bin/env bash
# Debian packages the test suite needs: Chromium (UI tests through Playwright), tini (init for the
# tests' PID namespace), util-linux (unshare, setpriv), a C compiler (fixtures and the benchmark floor),
# Prometheus (a real server scrapes `corral metrics`; promtool checks deploy/prometheus).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v tini >/dev/null 2>&1 || need+=(tini)
command -v unshare >/dev/null 2>&1 || need+=(util-linux)
command -v setpriv >/dev/null 2>&1 || need+=(util-linux)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v prometheus >/dev/null 2>&1 || need+=(prometheus)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
if [ "${#need[@]}" -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
