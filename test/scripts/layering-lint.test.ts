import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The layering messages ESLint gives a source text placed at `path` (which need not exist). */
async function layeringErrors(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${ROOT}/${path}` });
  return result!.messages.filter((m) => m.ruleId === 'layers/allowed-imports').map((m) => m.message);
}

describe('the layering, as allow-lists in eslint.config.mjs', () => {
  it('fails a wrong-way import: the monitor reading storage', async () => {
    const errors = await layeringErrors(
      'main/core/monitor/fixture.ts',
      "import { loadKeeps } from '../storage/keeps';\nexport const keeps = loadKeeps;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^main\/core\/monitor may not import main\/core\/storage/);
  });

  it('fails analysis importing a sampler, and the core importing a front end', async () => {
    expect(
      await layeringErrors(
        'main/core/analysis/fixture.ts',
        "export { LinuxSampler } from '../sampling/linux/linux-sampler';\n",
      ),
    ).toHaveLength(1);
    expect(
      await layeringErrors(
        'main/core/actions/fixture.ts',
        "export { UsageError } from '../../cli/usage-error';\n",
      ),
    ).toHaveLength(1);
  });

  it('passes an import its folder lists, and fails any import from a folder no layer names', async () => {
    expect(
      await layeringErrors(
        'main/core/monitor/fixture.ts',
        "import { attribute } from '../analysis/attribution';\nexport const a = attribute;\n",
      ),
    ).toEqual([]);
    const unplaced = await layeringErrors(
      'main/core/newfolder/fixture.ts',
      "import type { Settings } from '../../../shared/model';\nexport type S = Settings;\n",
    );
    expect(unplaced).toHaveLength(1);
    expect(unplaced[0]).toMatch(/in no layer/);
  });
});
