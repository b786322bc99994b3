#!/usr/bin/env bash
# `brew audit` of deploy/homebrew (macOS CI): audit takes formulae and casks by name from a tap, so they
# are copied into a local tap made for it, audited, and the tap removed.
set -euo pipefail
cd "$(dirname "$0")/.."
tap=corral-ci/local
brew tap-new --no-git "$tap" >/dev/null
trap 'brew untap "$tap" >/dev/null' EXIT
repo="$(brew --repository "$tap")"
mkdir -p "$repo/Formula" "$repo/Casks"
cp deploy/homebrew/corral.rb "$repo/Formula/corral.rb"
cp deploy/homebrew/corral-app.rb "$repo/Casks/corral-app.rb"
brew audit --strict --formula "$tap/corral"
brew audit --strict --cask "$tap/corral-app"
