// The files in deploy/ are checked by the tools that will load them: promtool for the scrape config
// and the alerting rules (and the rules' own unit tests), systemd-analyze for the user unit, and the
// dashboard's queries against the metric names Corral exports.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCorralMetrics, CORRAL_METRIC_NAMES } from '../../main/metrics/corral-metrics';
import { dashboardExprs, metricNamesIn } from './promql-names';
import { tempDirForTest } from '../support/spawned-groups';
import { describeUnless } from '../support/skip';

const root = resolve(__dirname, '../..');
const deploy = join(root, 'deploy');
const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/** Every series name a Corral scrape can hold (histograms as their _bucket/_sum/_count), plus `up`. */
async function exportedNames(): Promise<Set<string>> {
  const { registry } = createCorralMetrics();
  const names = new Set(['up']);
  for (const m of await registry.getMetricsAsJSON()) {
    if (String(m.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(m.name + suffix);
    else names.add(m.name);
  }
  return names;
}

const promtoolSkip = has('promtool')
  ? null
  : "promtool is not installed (Debian's prometheus package: bash scripts/install-test-deps.sh)";

describeUnless(promtoolSkip)('deploy/prometheus, checked by promtool', () => {
  it('the alerting rules load', () => {
    const out = execFileSync('promtool', ['check', 'rules', join(deploy, 'prometheus/corral-alerts.yml')], {
      encoding: 'utf8',
    });
    expect(out).toMatch(/SUCCESS: 5 rules found/);
  });

  it("the rules' unit tests pass: each alert fires on its series, and not on the others", () => {
    const run = spawnSync('promtool', ['test', 'rules', 'corral-alerts.test.yml'], {
      cwd: join(deploy, 'prometheus'),
      encoding: 'utf8',
    });
    expect(run.stdout + run.stderr).toMatch(/SUCCESS/);
    expect(run.status).toBe(0);
  });

  it('the scrape config loads as shipped, next to its token file', () => {
    const dir = tempDirForTest('corral-promtool-');
    for (const f of ['prometheus.yml', 'corral-alerts.yml'])
      copyFileSync(join(deploy, 'prometheus', f), join(dir, f));
    writeFileSync(join(dir, 'corral-metrics-token'), 'a3f1c9d2e4b5a6c7d8e9f0a1\n', { mode: 0o600 });
    const run = spawnSync('promtool', ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toMatch(/is valid prometheus config file syntax/);
    expect(run.status).toBe(0);
  });
});

describe('deploy/ queries name only metrics Corral exports', () => {
  it('every dashboard query and variable reads exported metrics', async () => {
    const exported = await exportedNames();
    const exprs = dashboardExprs();
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    const used = new Set<string>();
    for (const { title, expr } of exprs) {
      const names = metricNamesIn(expr);
      expect(names.length, `${title}: ${expr}`).toBeGreaterThan(0);
      for (const name of names) {
        expect(exported.has(name), `${title}: ${name} in ${expr}`).toBe(true);
        used.add(name);
      }
    }
    // The dashboard shows every metric Corral defines.
    for (const name of CORRAL_METRIC_NAMES)
      expect(
        [...used].some((u) => u === name || u.startsWith(`${name}_`)),
        name,
      ).toBe(true);
  });

  it('the alerting rules and their tests name exported metrics only', async () => {
    const exported = await exportedNames();
    for (const file of ['corral-alerts.yml', 'corral-alerts.test.yml']) {
      const text = readFileSync(join(deploy, 'prometheus', file), 'utf8');
      const names = [...text.matchAll(/\b(corral_[a-z_]+)\b/g)].map((m) => m[1]!);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(exported.has(name), `${file}: ${name}`).toBe(true);
    }
  });

  it('the name check itself catches a misspelt metric and ignores functions, labels and keywords', () => {
    expect(
      metricNamesIn(
        'sum by (instance, agent) (rate(corral_leftover_cpu_seconds_total{agent="x"}[5m])) > 0.5',
      ),
    ).toEqual(['corral_leftover_cpu_seconds_total']);
    expect(metricNamesIn('a_metric and on (instance) b_metric{flag="orphan"} / 1024')).toEqual([
      'a_metric',
      'b_metric',
    ]);
  });
});

const analyzeSkip = has('systemd-analyze') ? null : 'systemd-analyze is not installed';
if (analyzeSkip) console.log(`deploy-files.test.ts: the systemd unit check skipped, ${analyzeSkip}`);

describe.skipIf(analyzeSkip !== null)('deploy/systemd', () => {
  it('systemd-analyze verifies the user unit without a warning', () => {
    // %h is the home directory: give it one where the corral it starts exists.
    const home = tempDirForTest('corral-unit-home-');
    mkdirSync(join(home, '.local/bin'), { recursive: true });
    writeFileSync(join(home, '.local/bin/corral'), '#!/bin/sh\n');
    chmodSync(join(home, '.local/bin/corral'), 0o755);
    const unit = join(deploy, 'systemd/corral-metrics.service');
    expect(existsSync(unit)).toBe(true);
    const run = spawnSync('systemd-analyze', ['verify', unit], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // A non-loopback bind is given a token file, as `corral metrics` requires.
    expect(readFileSync(unit, 'utf8')).toMatch(/^ExecStart=\S+ metrics --host 0\.0\.0\.0 .*--token-file /m);
  });
});
