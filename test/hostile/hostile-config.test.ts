import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { loadConfig } from '../../main/core/config/load-config';
import type { GroupView } from '../../shared/model';
import { runCli } from '../support/run-cli';
import { tempDirRemovedAfterAll } from '../support/temp-dirs';

const dir = tempDirRemovedAfterAll('corral-config-');
let n = 0;
function configFile(content: string | Buffer): string {
  const path = join(dir, `config-${n++}.json`);
  writeFileSync(path, content);
  return path;
}

/** Every error names the file; `fields` are the field names the errors must name, in any order. */
function expectErrorsNaming(errors: string[], path: string, fields: string[]): void {
  for (const e of errors) expect(e.startsWith(`${path}: `), e).toBe(true);
  for (const field of fields) {
    expect(
      errors.some((e) => e.includes(field)),
      `an error naming ${field} in ${JSON.stringify(errors)}`,
    ).toBe(true);
  }
}

const LOAD_CONFIG = fileURLToPath(new URL('../../main/core/config/load-config.ts', import.meta.url));

function loadConfigInChild(path: string): ReturnType<typeof loadConfig> {
  const code = `import(${JSON.stringify(LOAD_CONFIG)}).then((m) => console.log(JSON.stringify((m.loadConfig ?? m.default.loadConfig)(process.argv[1]))))`;
  const stdout = execFileSync(process.execPath, ['--import', 'tsx', '-e', code, path], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(stdout) as ReturnType<typeof loadConfig>;
}

describe('loadConfig with hostile or broken config files', () => {
  it('wrong types: every field named, every default kept', () => {
    const path = configFile(
      JSON.stringify({
        pollIntervalMs: 'fast',
        runaway: [],
        teardown: { graceMs: '3s' },
        notifications: { enabled: 'yes', pausedUntil: 'tomorrow' },
        agents: { name: 'x' },
      }),
    );
    const { settings, errors } = loadConfig(path);
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expectErrorsNaming(errors, path, [
      'pollIntervalMs',
      'runaway',
      'teardown.graceMs',
      'notifications.enabled',
      'notifications.pausedUntil',
      'agents',
    ]);
  });

  it('huge values (1e308, Infinity from 1e400, beyond 2^53) fall back to defaults', () => {
    const path = configFile(
      '{"pollIntervalMs": 1e308, "runaway": {"cpuPercent": 1e400, "windowSeconds": 9007199254740993},' +
        ' "teardown": {"graceMs": 1e12}, "notifications": {"pausedUntil": 1e400}}',
    );
    const { settings, errors } = loadConfig(path);
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expectErrorsNaming(errors, path, [
      'pollIntervalMs',
      'runaway.cpuPercent',
      'runaway.windowSeconds',
      'teardown.graceMs',
      'notifications.pausedUntil',
    ]);
  });

  it('negative and zero thresholds are refused', () => {
    const path = configFile(
      JSON.stringify({
        pollIntervalMs: 0,
        runaway: { cpuPercent: -5, windowSeconds: -1 },
        teardown: { graceMs: -100 },
        notifications: { pausedUntil: -1 },
      }),
    );
    const { settings, errors } = loadConfig(path);
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expectErrorsNaming(errors, path, [
      'pollIntervalMs',
      'runaway.cpuPercent',
      'runaway.windowSeconds',
      'teardown.graceMs',
      'notifications.pausedUntil',
    ]);
  });

  it('unknown keys (including __proto__) are named, and the good fields beside them kept', () => {
    const path = configFile(
      '{"pollIntervalMs": 500, "bogus": 1, "runaway": {"cpuPercent": 90, "extra": true},' +
        ' "__proto__": {"pollIntervalMs": 5}, "constructor": {"prototype": {"polluted": true}}}',
    );
    const { settings, errors } = loadConfig(path);
    expect(settings.pollIntervalMs).toBe(500);
    expect(settings.runaway).toEqual({
      cpuPercent: 90,
      windowSeconds: DEFAULT_SETTINGS.runaway.windowSeconds,
    });
    expectErrorsNaming(errors, path, ['bogus', 'runaway.extra', '__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).pollIntervalMs).toBeUndefined();
  });

  it('an invalid regular expression drops only that signature, named by index and field', () => {
    const path = configFile(
      JSON.stringify({
        agents: [
          { name: 'broken', commandPatterns: ['('] },
          { name: '../../etc/passwd', comm: ['x'] },
          { name: 'bad-env', pidEnv: '1; rm -rf /', envMarkers: [''] },
          { name: 'fine', comm: ['fine-agent'], toolCallPatterns: ['^bash -c fine'] },
        ],
      }),
    );
    const { settings, errors } = loadConfig(path);
    expect(settings.agents).toEqual([
      { name: 'fine', comm: ['fine-agent'], toolCallPatterns: ['^bash -c fine'] },
    ]);
    expectErrorsNaming(errors, path, [
      'agents[0].commandPatterns',
      'invalid regular expression',
      'agents[1].name',
      'agents[2].envMarkers',
      'agents[2].pidEnv',
    ]);
  });

  it('not JSON, empty, or a JSON value that is not an object', () => {
    for (const content of [
      '{pollIntervalMs: 500',
      '',
      '\0\0\0binary\xff',
      'null',
      '[1,2]',
      '"a string"',
      '42',
    ]) {
      const path = configFile(content);
      const { settings, errors } = loadConfig(path);
      expect(settings).toEqual(DEFAULT_SETTINGS);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.startsWith(`${path}: `)).toBe(true);
      expect(errors[0]).toMatch(/not valid JSON|expected a JSON object/);
    }
  });

  it('a UTF-8 byte order mark (as some editors save) does not make a good file unreadable', () => {
    const path = configFile(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"pollIntervalMs": 700}')]),
    );
    const { settings, errors } = loadConfig(path);
    expect(errors).toEqual([]);
    expect(settings.pollIntervalMs).toBe(700);
  });

  it('a 2 MB file is refused by size, without being parsed', () => {
    const path = configFile(`{"pollIntervalMs": 500${' '.repeat(2 * 1024 * 1024)}}`);
    const { settings, errors } = loadConfig(path);
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expect(errors).toEqual([expect.stringContaining(`${path}: larger than 1 MiB`)]);
  });

  it('a directory, a FIFO and an endless device are refused at once, never read', () => {
    const directory = join(dir, 'a-directory');
    mkdirSync(directory);
    const fifo = join(dir, 'a-fifo');
    execFileSync('mkfifo', [fifo]);
    for (const path of [directory, fifo, '/dev/zero']) {
      // Opening a FIFO with no writer, or reading /dev/zero to its end, never returns: load in a child,
      // so a regression fails at a generous deadline instead of hanging the test run (a latency
      // threshold would belong to the bench).
      const { settings, errors } = loadConfigInChild(path);
      expect(settings).toEqual(DEFAULT_SETTINGS);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.startsWith(`${path}: `)).toBe(true);
    }
  });

  it('a missing file is not an error', () => {
    expect(loadConfig(join(dir, 'does-not-exist.json'))).toEqual({
      path: join(dir, 'does-not-exist.json'),
      settings: DEFAULT_SETTINGS,
      errors: [],
    });
  });
});

describe('the real CLI with a hostile config file', () => {
  it('corral ps --json exits 0, names the file and field on stderr, and prints valid JSON', async () => {
    const wrongType = configFile(
      JSON.stringify({ pollIntervalMs: 'fast', agents: [{ name: 'x', commandPatterns: ['(('] }] }),
    );
    const notJson = configFile('{"pollIntervalMs": ');
    const directory = join(dir, 'config-dir');
    mkdirSync(directory);
    const cases: Array<[string, RegExp[]]> = [
      [wrongType, [/pollIntervalMs/, /agents\[0\]\.commandPatterns/]],
      [notJson, [/not valid JSON/]],
      [directory, [/not a regular file|cannot read/]],
    ];
    const results = await Promise.all(
      cases.map(([path]) => runCli(['ps', '--json'], { env: { CORRAL_CONFIG: path } })),
    );
    results.forEach((result, i) => {
      const [path, patterns] = cases[i]!;
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stderr.trim().split('\n');
      for (const line of lines) expect(line.startsWith(`corral: config: ${path}: `), line).toBe(true);
      for (const pattern of patterns) expect(result.stderr).toMatch(pattern);
      const parsed = JSON.parse(result.stdout) as { sampledAt: number; groups: GroupView[] };
      expect(Array.isArray(parsed.groups)).toBe(true);
      expect(parsed.sampledAt).toBeGreaterThan(0);
    });
  });
});
