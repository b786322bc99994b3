# Homebrew formula for the `corral` CLI (the npm package). Kept in step with package.json by
# scripts/sync-homebrew.mjs: `--check` in the tests, `--tarball <corral-X.tgz>` at release to set the
# checksum of the tarball published to npm. The package needs no install scripts (koffi and libsql load
# their prebuilt binaries from optional packages), so std_npm_args' --ignore-scripts is fine.
class Corral < Formula
  desc "Watchdog for the processes AI coding agents leave behind"
  homepage "https://github.com/corral-dev/corral"
  url "https://registry.npmjs.org/corral/-/corral-0.1.0.tgz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "MIT"

  livecheck do
    url :stable
  end

  depends_on "node"

  def install
    system "npm", "install", *std_npm_args
    bin.install_symlink libexec.glob("bin/*")
  end

  service do
    run [opt_bin/"corral", "watch", "--json"]
    # launchd starts services with PATH=/usr/bin:/bin:/usr/sbin:/sbin: without Homebrew's bin, the
    # launcher's `#!/usr/bin/env node` finds no node (exit 127, restarted every 10 s).
    environment_variables PATH: std_service_path_env
    keep_alive successful_exit: false
    # Only problems (stderr) go to a file: launchd never rotates it, and the event stream is what
    # `corral history` and `corral watch` already show.
    error_log_path var/"log/corral-watch.log"
  end

  test do
    assert_equal "corral #{version}", shell_output("#{bin}/corral --version").strip
    assert_match "\"groups\"", shell_output("#{bin}/corral ps --json")
  end
end
