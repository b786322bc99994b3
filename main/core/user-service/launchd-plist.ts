import { posix } from 'node:path';
import { checkServiceSpec, type ServiceSpec } from './systemd-unit';

export const LAUNCHD_LABEL = 'dev.corral.watch';
/** Marks a plist `corral service install` wrote: uninstall removes only such a file. */
export const PLIST_WRITTEN_BY =
  '<!-- Written by `corral service install`; `corral service uninstall` removes it. -->';

export function launchAgentPath(home: string): string {
  return posix.join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
}

/** Where launchd writes the service's problems (stderr); launchd creates the file, install does not. */
export function launchAgentLogPath(home: string): string {
  return posix.join(home, 'Library', 'Logs', 'corral-watch.log');
}

function xml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/**
 * The `corral watch` LaunchAgent (launchd.plist(5)): started at login (RunAtLoad), started again
 * when it exits with a failure (KeepAlive SuccessfulExit false), not throttled (ProcessType Standard).
 */
export function launchAgentPlist(spec: ServiceSpec, home: string): string {
  // XML 1.0 carries no C0 control but tab and newline, and a newline would change the value: refused.
  checkServiceSpec(spec);
  const args = [...spec.argv, 'watch', '--json'].map((a) => `      <string>${xml(a)}</string>`);
  const env: Array<[string, string]> = [['PATH', spec.path]];
  if (spec.dataDir) env.push(['CORRAL_DATA_DIR', spec.dataDir]);
  if (spec.configPath) env.push(['CORRAL_CONFIG', spec.configPath]);
  const log = xml(launchAgentLogPath(home));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    PLIST_WRITTEN_BY,
    '<plist version="1.0">',
    '  <dict>',
    '    <key>Label</key>',
    `    <string>${LAUNCHD_LABEL}</string>`,
    '    <key>ProgramArguments</key>',
    '    <array>',
    ...args,
    '    </array>',
    '    <key>EnvironmentVariables</key>',
    '    <dict>',
    ...env.flatMap(([k, v]) => [`      <key>${k}</key>`, `      <string>${xml(v)}</string>`]),
    '    </dict>',
    '    <key>RunAtLoad</key>',
    '    <true/>',
    '    <key>KeepAlive</key>',
    '    <dict>',
    '      <key>SuccessfulExit</key>',
    '      <false/>',
    '    </dict>',
    // Standard, not Background: a Background job is throttled (CPU and I/O) as the app avoids being by
    // opting out of App Nap, and a watchdog that notices a runaway late is no watchdog.
    '    <key>ProcessType</key>',
    '    <string>Standard</string>',
    // launchd never rotates a log: the event stream (`watch --json`, which `corral history` and a live
    // `watch` already give) would grow it without end, so only what goes wrong (stderr) is kept.
    '    <key>StandardOutPath</key>',
    '    <string>/dev/null</string>',
    '    <key>StandardErrorPath</key>',
    `    <string>${log}</string>`,
    '  </dict>',
    '</plist>',
    '',
  ].join('\n');
}
