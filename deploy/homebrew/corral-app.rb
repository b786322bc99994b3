# Homebrew cask for the desktop app (the dmg a GitHub release carries, one per architecture). Kept in
# step with package.json by scripts/sync-homebrew.mjs: `--check` in the tests, `--dmg-arm64` and
# `--dmg-x64` at release to set the checksums. electron-builder names the dmgs Corral-<version>-arm64.dmg
# and Corral-<version>.dmg (its default leaves out x64). The app updates itself (electron-updater), so
# the cask says auto_updates.
cask "corral-app" do
  arch arm: "-arm64", intel: ""

  version "0.1.0"
  sha256 arm:   "0000000000000000000000000000000000000000000000000000000000000000",
         intel: "0000000000000000000000000000000000000000000000000000000000000000"

  url "https://github.com/corral-dev/corral/releases/download/v#{version}/Corral-#{version}#{arch}.dmg"
  name "Corral"
  desc "Watchdog for the processes AI coding agents leave behind"
  homepage "https://github.com/corral-dev/corral"

  livecheck do
    url :url
    strategy :github_latest
  end

  auto_updates true
  depends_on macos: ">= :ventura"

  app "Corral.app"

  zap trash: [
    "~/Library/Application Support/Corral",
    "~/Library/Preferences/dev.corral.app.plist",
    "~/Library/Saved Application State/dev.corral.app.savedState",
  ]
end
