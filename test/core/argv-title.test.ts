import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

describe('a process that set its title', () => {
  it('has its argv without the trail of empty strings the old argv area leaves', async () => {
    // As agents do: node sets process.title, and the kernel shows the rest of the argv area as NULs.
    const script = `process.title = 'short-title'; require('fs').writeFileSync(process.argv[1] + '/pid', String(process.pid) + '\\n'); setInterval(() => {}, 60000)`;
    const group = spawnGroup(`exec ${process.execPath} -e "${script}" "$DIR" ${'x'.repeat(200)}`);
    const pid = Number(await group.ready('pid'));
    const raw = await waitFor('the title set', () => {
      const text = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      return text.startsWith('short-title\0') ? text : undefined;
    });
    // The condition being fixed: the kernel really reports empty arguments after the title.
    expect(
      raw
        .split('\0')
        .slice(1)
        .every((a) => a === ''),
    ).toBe(true);
    expect(raw.length).toBeGreaterThan(100);
    const record = new LinuxSampler({ markerKeys: new Set() }).sampleSome([pid])[0]!;
    expect(record.argv).toEqual(['short-title']);
  });
});
