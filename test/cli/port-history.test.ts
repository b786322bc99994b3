import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import type { PortHolding } from '../../shared/words/port-history';
import { neighbouringFreePorts, startDevServerCall, writeDevServerScript } from '../support/dev-server';
import { groupMembers } from '../support/proc';
import { runCli } from '../support/run-cli';
import { startHarness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

// A dev server drifts: one session's server holds P, is stopped, the next session's takes P+1. The
// running Corral notes each group's ports and session on its incident; `corral ps --port P` then
// shows who held P and P+1 in the last day, and the drift.

const tempDir = tempDirsRemovedAfterEach();

describe('corral ps --port: who held the port before, from incidents', { timeout: 120_000 }, () => {
  it('shows the holders of P and the ports above it in the last day, and the drift P → P+1', async () => {
    const harness = startHarness();
    // A viewer: the service builds its decorated views (ports, sessions) on every tick.
    const off = harness.running.service.onSnapshot(() => {});
    const env = { CORRAL_CONFIG: '/nonexistent', CORRAL_DATA_DIR: harness.dataDir };
    try {
      const project = tempDir('corral-drift-project-');
      mkdirSync(join(project, '.git'));
      const port = await neighbouringFreePorts(2);
      const script = writeDevServerScript(tempDir('corral-drift-server-'), 'serve.mjs');
      const sessions = [randomUUID(), randomUUID()];
      const servers: number[] = [];
      for (const [n, session] of sessions.entries()) {
        const readyDir = tempDir('corral-drift-ready-');
        const call = await startDevServerCall({ script, port: port + n, project, session, readyDir });
        servers.push(call.pid);
        await harness.next('incident-opened', (e) => e.pgid === call.pid);
        // The incident learns its port once a view read the listener.
        await waitFor(
          `the incident of ${call.pid} noting port ${port + n}`,
          async () =>
            (await harness.running.service.incidents()).find(
              (i) => i.pgid === call.pid && i.ports?.includes(port + n) && i.session?.id === session,
            ),
          { timeoutMs: 40_000 },
        );
        if (n === 0) {
          // The first is stopped the way the hook's note suggests.
          const kill = await runCli(['kill', '--port', String(port), '--grace-ms', '2000'], { env });
          expect(kill.code, kill.stderr).toBe(0);
          expect(groupMembers(call.pid)).toEqual([]);
          await harness.next('incident-closed', (e) => e.pgid === call.pid);
        }
      }

      const json = await runCli(['ps', '--port', String(port), '--json'], { env });
      // Nothing holds P now (exit 3, as corral kill --port says), yet its history is there.
      expect(json.code).toBe(3);
      const parsed = JSON.parse(json.stdout) as { groups: GroupView[]; portHistory: PortHolding[] };
      expect(parsed.groups).toEqual([]);
      expect(parsed.portHistory.map((h) => [h.port, h.pgid, h.sessionId, h.project, h.end])).toEqual([
        [port, servers[0], sessions[0], project, 'stopped-by-user'],
        [port + 1, servers[1], sessions[1], project, 'open'],
      ]);
      expect(parsed.portHistory[0]!.until).not.toBeNull();
      expect(parsed.portHistory[1]!.until).toBeNull();
      expect(parsed.portHistory[0]!.command).toContain(`serve.mjs ${port}`);

      const text = await runCli(['ps', '--port', String(port)], { env });
      expect(text.stdout).toContain(
        `Earlier on :${port} and the 9 ports above it (last 24 h, from incidents):`,
      );
      expect(text.stdout).toMatch(
        new RegExp(`:${port} .*session ${sessions[0]!.slice(0, 8)}.*stopped by you`),
      );
      expect(text.stdout).toMatch(
        new RegExp(`:${port + 1} .*session ${sessions[1]!.slice(0, 8)}.*still running`),
      );
      expect(text.stdout).toContain(`Drift: :${port} → :${port + 1}`);

      // From P+1, the current holder and (P being below it) only P+1's own history.
      const above = JSON.parse(
        (await runCli(['ps', '--port', String(port + 1), '--json'], { env })).stdout,
      ) as {
        groups: GroupView[];
        portHistory: PortHolding[];
      };
      expect(above.groups.map((g) => g.pgid)).toEqual([servers[1]]);
      expect(above.portHistory.map((h) => h.port)).toEqual([port + 1]);
    } finally {
      off();
      await harness.stop();
    }
  });
});
