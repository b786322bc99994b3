import { describe, expect, it } from 'vitest';
import {
  cwdInProject,
  groupPortNumbers,
  leftoverCommand,
  portsText,
  projectName,
  sessionIdsOf,
  shortSessionId,
} from '../../shared/words/provenance-text';

describe('provenance text', () => {
  it.each([
    ['/home/me/shop', 'shop'],
    ['/home/me/shop/', 'shop'],
    ['/', '/'],
    [null, null],
  ])('projectName(%j) = %j', (project, name) => {
    expect(projectName(project)).toBe(name);
  });

  it.each([
    ['/home/me/shop/web/app', '/home/me/shop', 'web/app'],
    ['/home/me/shop', '/home/me/shop', 'project root'],
    ['/home/me/shop', '/home/me/shop/', 'project root'],
    ['/home/me/shopping/x', '/home/me/shop', '/home/me/shopping/x'],
    ['/tmp', null, '/tmp'],
  ])('cwdInProject(%j, %j) = %j', (cwd, project, shown) => {
    expect(cwdInProject(cwd, project)).toBe(shown);
  });

  it('lists each port once, lowest first, from the group or its members', () => {
    const ports = [
      { protocol: 'tcp6' as const, address: '::', port: 5173 },
      { protocol: 'tcp' as const, address: '127.0.0.1', port: 3000 },
      { protocol: 'tcp6' as const, address: '::1', port: 3000 },
    ];
    expect(groupPortNumbers({ ports, processes: [] })).toEqual([3000, 5173]);
    expect(portsText(groupPortNumbers({ ports, processes: [] }))).toBe(':3000, :5173');
    expect(portsText([])).toBe('');
  });

  it("prefers the tool call's command, unwrapped, to the leader's command line", () => {
    const processes = [
      {
        pid: 5,
        startedAt: 1,
        command: "/bin/bash -c source /r/.claude/shell-snapshots/s.sh && eval 'make serve'",
      },
    ] as never;
    expect(leftoverCommand({ leaderPid: 5, processes, toolCall: null })).toBe('make serve');
    const toolCall = { id: null, command: 'npm run dev', description: null, startedAt: 0 };
    expect(leftoverCommand({ leaderPid: 5, processes, toolCall })).toBe('npm run dev');
    expect(shortSessionId('3f0e5a52-7a53-4c55')).toBe('3f0e5a52');
    expect(shortSessionId('4521')).toBe('4521');
  });

  it('shortens a session id to the part that tells it from the others shown (Codex ids begin with a timestamp)', () => {
    // Two thread ids Codex CLI 0.171.0 wrote within a second (test/fixtures/codex/rollout-…jsonl).
    const a = '01a22d9f-7ee7-7e92-9956-73056e14f01f';
    const b = '01a22d9f-7ef2-7fd2-a1e3-3b279547b759';
    expect(shortSessionId(a, [a, b])).toBe('01a22d9f-7ee');
    expect(shortSessionId(b, [a, b])).toBe('01a22d9f-7ef');
    expect(shortSessionId(a, [a, '3f0e5a52-7a53-4c55'])).toBe('01a22d9f');
    expect(shortSessionId('01a22d9f', ['01a22d9f-7ee7'])).toBe('01a22d9f');
    const groups = [a, b, a].map((id) => ({ session: { id } })) as never[];
    expect([...sessionIdsOf([...groups, { session: null } as never])]).toEqual([a, b]);
  });
});
