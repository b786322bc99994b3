import { describe, expect, it } from 'vitest';
import { isShellName } from '../../shared/shells';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { wrappedCommand } from '../../main/core/provenance/wrapped-command';
import { rec } from './record-fixture';

describe('the one list of shells', () => {
  it.each(['sh', 'bash', '/bin/dash', '/usr/bin/zsh', '-bash', 'fish', 'csh', 'tcsh', 'nu', 'ksh', 'mksh'])(
    '%s is a shell',
    (name) => expect(isShellName(name)).toBe(true),
  );
  it.each(['node', 'shx', 'bashful', 'env', 'timeout', '/usr/bin/ssh', ''])('%s is no shell', (name) =>
    expect(isShellName(name)).toBe(false),
  );

  it('gives the command a fish, csh or nu `-c` runs, as it does for bash', () => {
    const matcher = new AgentMatcher([], []);
    for (const shell of ['/bin/bash', '/usr/bin/fish', '/bin/csh', '/usr/bin/nu'])
      expect(wrappedCommand(rec({ pid: 10, argv: [shell, '-c', 'npm run dev'] }), matcher)).toBe(
        'npm run dev',
      );
  });
});
