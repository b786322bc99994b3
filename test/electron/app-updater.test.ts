// The app's update check through the real electron-updater (its GitHub provider, YAML parsing and
// version decision), outside Electron: its AppImageUpdater with an app adapter standing in for
// Electron's `app`, and a Node HTTP executor for Electron's `net`, against a local server on 127.0.0.1
// that answers as GitHub Releases do (the releases feed, the latest release, latest-linux.yml /
// latest-mac.yml). The scheduler around it: at start, daily, never while a stop runs or when off.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type ClientRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestOptions } from 'node:http';
import { HttpExecutor } from 'builder-util-runtime';
import { AppImageUpdater, type AppUpdater } from 'electron-updater';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateSettings } from '../../main/core/config/validate-settings';
import { checkForUpdate, configureUpdater } from '../../main/electron/updates/app-updater';
import { DAY_MS, RETRY_AFTER_STOP_MS, UpdateScheduler } from '../../main/electron/updates/update-scheduler';
import { updateUnsupported } from '../../main/electron/updates/update-support';
import { removeDir } from '../support/spawned-groups';

const OWNER = 'corral-dev';
const REPO = 'corral';
const artifact = Buffer.from('not really an AppImage, but bytes with a real checksum');
const sha512 = createHash('sha512').update(artifact).digest('base64');

/** What the release server answers: the latest tag, and the metadata files of each release. */
let latestTag = 'v0.2.0';
const requested: string[] = [];
let server: Server;
let host = '';
const dirs: string[] = [];

function latestYml(version: string, file: string): string {
  // As electron-builder writes them (app-builder-lib's updateInfoBuilder): files, then the legacy path.
  return [
    `version: ${version}`,
    'files:',
    `  - url: ${file}`,
    `    sha512: ${sha512}`,
    `    size: ${artifact.length}`,
    `path: ${file}`,
    `sha512: ${sha512}`,
    "releaseDate: '2026-11-30T10:00:00.000Z'",
    '',
  ].join('\n');
}

function feed(): string {
  const tag = latestTag;
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US">
  <id>tag:github.com,2008:https://github.com/${OWNER}/${REPO}/releases</id>
  <title>Release notes from ${REPO}</title>
  <entry>
    <id>tag:github.com,2008:Repository/1/${tag}</id>
    <link rel="alternate" type="text/html" href="https://github.com/${OWNER}/${REPO}/releases/tag/${tag}"/>
    <title>${tag}</title>
    <content type="html">&lt;p&gt;Fixes.&lt;/p&gt;</content>
  </entry>
</feed>`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '';
    requested.push(url);
    const base = `/${OWNER}/${REPO}/releases`;
    const download = new RegExp(`^${base}/download/(v[^/]+)/(latest-(?:linux|mac)\\.yml)$`).exec(url);
    if (url === `${base}.atom`) {
      res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed());
    } else if (url === `/api/v3/repos/${OWNER}/${REPO}/releases/latest`) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tag_name: latestTag }));
    } else if (download && download[1] === latestTag) {
      const version = latestTag.slice(1);
      const file =
        download[2] === 'latest-mac.yml' ? `Corral-${version}-arm64-mac.zip` : `Corral-${version}.AppImage`;
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(latestYml(version, file));
    } else {
      res.writeHead(404).end('Not Found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const d of dirs.splice(0)) removeDir(d);
});

afterEach(() => {
  requested.length = 0;
  latestTag = 'v0.2.0';
  vi.useRealTimers();
});

/** Electron's net, replaced by Node's http: the requests the provider builds are sent as they are. */
class NodeExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback);
  }
}

/**
 * The real updater as the packaged app has it: the app-update.yml electron-builder writes from
 * `publish` (provider github), pointed at the local server by the GitHub provider's own host option.
 */
function updaterAt(version: string, platform: 'linux' | 'darwin'): AppUpdater {
  const dir = mkdtempSync(join(tmpdir(), 'corral-updater-'));
  dirs.push(dir);
  const config = join(dir, 'app-update.yml');
  writeFileSync(
    config,
    `owner: ${OWNER}\nrepo: ${REPO}\nprovider: github\nhost: '${host}'\nprotocol: http\nupdaterCacheDirName: corral-updater\n`,
  );
  const updater = new AppImageUpdater(undefined, {
    version,
    name: 'Corral',
    isPackaged: true,
    appUpdateConfigPath: config,
    userDataPath: dir,
    baseCachePath: dir,
    whenReady: () => Promise.resolve(),
    relaunch: () => {},
    quit: () => {},
    onQuit: () => {},
  });
  configureUpdater(updater, () => {});
  // What this test looks at is the decision; the download is electron-updater's own.
  updater.autoDownload = false;
  // The AppImage updater wants APPIMAGE; the platform picks latest-linux.yml or latest-mac.yml.
  updater.forceDevUpdateConfig = true;
  Object.assign(updater, { httpExecutor: new NodeExecutor(), _testOnlyOptions: { platform } });
  return updater;
}

describe('the update check (electron-updater, GitHub provider, local release server)', () => {
  it('finds a newer release in latest-linux.yml, by the route GitHub Releases serve it', async () => {
    const found = await checkForUpdate(updaterAt('0.1.0', 'linux'));
    expect(found).toEqual({ version: '0.2.0', newer: true });
    expect(requested).toEqual([
      `/${OWNER}/${REPO}/releases.atom`,
      `/api/v3/repos/${OWNER}/${REPO}/releases/latest`,
      `/${OWNER}/${REPO}/releases/download/v0.2.0/latest-linux.yml`,
    ]);
  });

  it('reads latest-mac.yml on macOS', async () => {
    expect(await checkForUpdate(updaterAt('0.1.0', 'darwin'))).toEqual({ version: '0.2.0', newer: true });
    expect(requested.at(-1)).toBe(`/${OWNER}/${REPO}/releases/download/v0.2.0/latest-mac.yml`);
  });

  it('is up to date on the same version, and never goes back to an older one', async () => {
    expect(await checkForUpdate(updaterAt('0.2.0', 'linux'))).toEqual({ version: '0.2.0', newer: false });
    latestTag = 'v0.1.5';
    expect(await checkForUpdate(updaterAt('0.2.0', 'linux'))).toEqual({ version: '0.1.5', newer: false });
  });

  it('fails, saying which file, when the release has no metadata for this platform', async () => {
    latestTag = 'v0.3.0';
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res) => {
      requested.push(req.url ?? '');
      if (req.url === `/${OWNER}/${REPO}/releases.atom`) res.writeHead(200).end(feed());
      else if (req.url?.endsWith('/releases/latest'))
        res.writeHead(200).end(JSON.stringify({ tag_name: latestTag }));
      else res.writeHead(404).end('Not Found');
    });
    await expect(checkForUpdate(updaterAt('0.1.0', 'linux'))).rejects.toThrow(
      /Cannot find latest-linux\.yml in the latest release artifacts/,
    );
  });
});

describe('when the app checks', () => {
  it('checks at start and then daily', async () => {
    vi.useFakeTimers();
    const check = vi.fn(() => Promise.resolve());
    const scheduler = new UpdateScheduler({
      check,
      gate: () => ({ enabled: true, unsupported: null, stopsRunning: 0 }),
      log: () => {},
    });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(DAY_MS - 1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(2);
    scheduler.stop();
    await vi.advanceTimersByTimeAsync(2 * DAY_MS);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('never while a stop runs (tried again 10 minutes later), nor when turned off or unsupported', async () => {
    vi.useFakeTimers();
    const check = vi.fn(() => Promise.resolve());
    const state = { enabled: true, unsupported: null as string | null, stopsRunning: 1 };
    const log: string[] = [];
    const scheduler = new UpdateScheduler({ check, gate: () => state, log: (l) => log.push(l) });
    expect(await scheduler.tick()).toBe('a stop is running');
    state.stopsRunning = 0;
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_STOP_MS);
    expect(check).toHaveBeenCalledTimes(1);
    state.enabled = false;
    expect(await scheduler.tick()).toBe('updates are turned off (updates.enabled is false)');
    state.enabled = true;
    state.unsupported = 'an unsigned build (no Developer ID signature)';
    expect(await scheduler.tick()).toBe('an unsigned build (no Developer ID signature)');
    expect(check).toHaveBeenCalledTimes(1);
    expect(log).toContain('update check skipped: a stop is running');
    scheduler.stop();
  });

  it('is off for unsigned, unpackaged and package-manager builds', () => {
    const devId =
      'Executable=/Applications/Corral.app/Contents/MacOS/Corral\nAuthority=Developer ID Application: Corral (ABCDE12345)\n';
    const adHoc = 'Executable=/Applications/Corral.app/Contents/MacOS/Corral\nSignature=adhoc\n';
    const exe = '/Applications/Corral.app/Contents/MacOS/Corral';
    const seen: string[] = [];
    expect(updateUnsupported(true, 'darwin', {}, exe, (b) => (seen.push(b), devId))).toBeNull();
    expect(seen).toEqual(['/Applications/Corral.app']);
    expect(updateUnsupported(true, 'darwin', {}, exe, () => adHoc)).toBe(
      'an unsigned build (no Developer ID signature)',
    );
    expect(updateUnsupported(true, 'darwin', {}, exe, () => '')).toBe(
      'an unsigned build (no Developer ID signature)',
    );
    expect(updateUnsupported(false, 'darwin', {}, exe, () => devId)).toBe('not a packaged build');
    expect(
      updateUnsupported(true, 'linux', { APPIMAGE: '/home/u/Corral.AppImage' }, '/tmp/.mount/corral'),
    ).toBeNull();
    expect(updateUnsupported(true, 'linux', {}, '/opt/Corral/corral')).toBe(
      'not an AppImage: your package manager updates this install',
    );
  });

  it('follows the updates.enabled setting: on by default, off with false, a wrong value named', () => {
    expect(validateSettings({}).settings.updates).toEqual({ enabled: true });
    expect(validateSettings({ updates: { enabled: false } })).toMatchObject({
      settings: { updates: { enabled: false } },
      errors: [],
    });
    expect(validateSettings({ updates: { enabled: 'no', channel: 'beta' } }).errors).toEqual([
      'updates.channel: unknown key',
      'updates.enabled: expected true or false, got "no"',
    ]);
  });
});
