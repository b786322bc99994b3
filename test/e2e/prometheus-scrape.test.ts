// A real Prometheus server (Debian's package) scrapes a real `corral metrics` while a fake agent
// leaks a busy loop, and its HTTP API shows the leak. Runs where prometheus and the build exist.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { startMetricsProcess } from '../support/metrics-process';
import { tempDirForTest, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { dashboardExprs, withGrafanaVariables } from '../deploy/promql-names';
import { describeUnless } from '../support/skip';

const root = resolve(__dirname, '../..');
const PROMETHEUS = '/usr/bin/prometheus';
const skipReason = !existsSync(PROMETHEUS)
  ? `${PROMETHEUS} is not installed (Debian's prometheus package: bash scripts/install-test-deps.sh)`
  : !existsSync(join(root, 'out/main/corral.js'))
    ? 'the CLI is not built (run npm run build)'
    : null;

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

async function startPrometheus(targetPort: number) {
  const dir = tempDirForTest('corral-prometheus-');
  // The alerting rules Corral ships, loaded by the real server.
  copyFileSync(join(root, 'deploy/prometheus/corral-alerts.yml'), join(dir, 'corral-alerts.yml'));
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      '  - corral-alerts.yml',
      'scrape_configs:',
      '  - job_name: corral',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${targetPort}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    },
  );
  trackGroup(child.pid!);
  let log = '';
  child.stderr.on('data', (d) => (log += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    `Prometheus to be ready (log: ${log.slice(-2000)})`,
    async () => (await fetch(`${base}/-/ready`)).status === 200,
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  const api = async <T>(path: string): Promise<T> => {
    const body = (await (await fetch(`${base}${path}`)).json()) as {
      status: string;
      data: T;
      error?: string;
    };
    if (body.status !== 'success') throw new Error(`${path}: ${body.error ?? body.status}`);
    return body.data;
  };
  return {
    query: async (q: string): Promise<Sample[]> =>
      (await api<{ result: Sample[] }>(`/api/v1/query?query=${encodeURIComponent(q)}`)).result,
    api,
    log: () => log,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describeUnless(skipReason)('a real Prometheus scraping corral metrics', () => {
  it('sees a leaked busy loop flagged orphan and its leftover CPU grow, through the HTTP API', async () => {
    const corral = await startMetricsProcess(['--port', '0'], {
      config: { pollIntervalMs: 250, runaway: { cpuPercent: 10, windowSeconds: 1 } },
    });
    expect(corral.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const prometheus = await startPrometheus(corral.port);
    const one = async (q: string): Promise<number | undefined> => {
      const [sample] = await prometheus.query(q);
      return sample ? Number(sample.value[1]) : undefined;
    };

    await waitFor(
      'Prometheus to scrape corral (up == 1)',
      async () => (await one('up{job="corral"}')) === 1,
      {
        timeoutMs: 30_000,
        intervalMs: 250,
      },
    );

    const agent = await FakeAgent.start();
    const call = await agent.toolCall('until false; do :; done 2>/dev/null & sleep 0.3; echo placeholder');
    await call.exited();

    await waitFor(
      'corral_flagged_groups{agent="claude-code",flag="orphan"} == 1',
      async () => (await one('corral_flagged_groups{agent="claude-code",flag="orphan"}')) === 1,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const cpu = 'corral_leftover_cpu_seconds_total{agent="claude-code"}';
    const first = await waitFor('leftover CPU above 0', async () => ((await one(cpu)) ?? 0) > 0 && one(cpu), {
      timeoutMs: 30_000,
      intervalMs: 250,
    });
    const later = await waitFor(
      `leftover CPU to grow past ${first} s`,
      async () => {
        const now = (await one(cpu)) ?? 0;
        return now > first + 1 && now;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(later).toBeGreaterThan(first);
    await waitFor(
      'the loop flagged runaway too',
      async () => (await one('corral_flagged_groups{agent="claude-code",flag="runaway"}')) === 1,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(await one('corral_leftover_memory_bytes{agent="claude-code"}')).toBeGreaterThan(0);
    expect(await one('corral_incidents_total{agent="claude-code",kind="orphan"}')).toBeGreaterThanOrEqual(1);
    expect(await one('corral_poll_duration_seconds_count')).toBeGreaterThan(0);
    expect(await one('corral_processes_seen')).toBeGreaterThan(0);
    expect(await one('process_cpu_seconds_total{job="corral"}')).toBeGreaterThan(0);

    // Every label value Prometheus stored for Corral's metrics is from a closed set.
    const series = await prometheus.api<Array<Record<string, string>>>(
      `/api/v1/series?match[]=${encodeURIComponent('{__name__=~"corral_.+"}')}`,
    );
    for (const s of series)
      for (const key of ['agent', 'flag', 'kind', 'outcome'])
        if (s[key] !== undefined) expect(s[key], JSON.stringify(s)).toMatch(/^[a-z][a-z-]*$/);

    // The shipped alerting rules loaded and evaluate; every dashboard query is valid PromQL here.
    const rules = await prometheus.api<{ groups: Array<{ rules: Array<{ name: string; health: string }> }> }>(
      '/api/v1/rules',
    );
    const loaded = rules.groups.flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name).sort()).toEqual([
      'CorralDown',
      'CorralLeftoverMemoryHigh',
      'CorralNotPolling',
      'CorralOrphanedRunaway',
      'CorralPollErrors',
    ]);
    await waitFor('every rule evaluated ok', async () => {
      const now = await prometheus.api<{ groups: Array<{ rules: Array<{ health: string }> }> }>(
        '/api/v1/rules',
      );
      return now.groups.flatMap((g) => g.rules).every((r) => r.health === 'ok');
    });
    for (const { expr } of dashboardExprs()) await prometheus.query(withGrafanaVariables(expr));

    expect(await prometheus.stop()).toBe(0);
    expect(await corral.stop()).toBe(0);
    expect(corral.stderr()).toBe('');
  });
});
