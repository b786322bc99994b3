import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

function koffiMapped(): boolean {
  return readFileSync('/proc/self/maps', 'utf8').includes('koffi.node');
}

describe('darwin-sampler module on Linux', () => {
  it('loads neither koffi nor libSystem on import, only when a sampler is constructed', async () => {
    expect(koffiMapped()).toBe(false);
    const { DarwinSampler } = await import('../../main/core/sampling/darwin/darwin-sampler');
    expect(koffiMapped()).toBe(false);

    // Here the construction reaches koffi.load('/usr/lib/libSystem.B.dylib'), which Linux cannot open.
    expect(() => new DarwinSampler({ markerKeys: new Set() })).toThrow(/libSystem\.B\.dylib/);
    expect(koffiMapped()).toBe(true);
  });
});
