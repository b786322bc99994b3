import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module script without types
import { LAYERS, allowedCycle, layersPlugin } from '../../scripts/eslint/layers.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The messages `rules` give a source text placed at `path` (which need not exist). */
async function errorsOf(path: string, source: string, rules: string[]): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${ROOT}/${path}` });
  return result!.messages.filter((m) => rules.includes(m.ruleId ?? '')).map((m) => m.message);
}

const layeringErrors = (path: string, source: string) => errorsOf(path, source, ['layers/allowed-imports']);

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

  it("fails a monitor room importing a room it does not list, and passes the monitor's own use of its rooms", async () => {
    const errors = await layeringErrors(
      'main/core/monitor/schedule/fixture.ts',
      "export { IncidentGlue } from '../incidents/incident-glue';\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^main\/core\/monitor\/schedule may not import main\/core\/monitor\/incidents/);
    expect(
      await layeringErrors(
        'main/core/monitor/fixture.ts',
        "export { IncidentGlue } from './incidents/incident-glue';\n",
      ),
    ).toEqual([]);
  });

  it('fails every file of a folder whose allow-list lets it be imported back, and the real lists have no such way round', async () => {
    expect(allowedCycle(LAYERS)).toBeNull();
    const table = 'main/core/monitor/table';
    const cyclic = { ...LAYERS, [table]: [...LAYERS[table], 'main/core/monitor/incidents'] };
    const lint = new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          plugins: { layers: layersPlugin(ROOT, cyclic) },
          rules: { 'layers/allowed-imports': 'error' },
        },
      ],
    });
    const [result] = await lint.lintText("export { IncidentGlue } from '../incidents/incident-glue';\n", {
      filePath: `${ROOT}/${table}/fixture.ts`,
    });
    expect(result!.messages.map((m) => m.message)).toEqual([
      `the allow-lists go round: ${table} → main/core/monitor/incidents → ${table}; one of these imports must go (scripts/eslint/layers.mjs)`,
    ]);
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

/** Every message the import rules give: the layering, the core root, imports and the syntax around them. */
const importErrors = (path: string, source: string) =>
  errorsOf(path, source, [
    'layers/allowed-imports',
    'layers/core-root-files',
    'layers/dynamic-imports',
    'no-restricted-imports',
    'no-restricted-syntax',
  ]);

/** Expects a legal counterpart to pass every import rule. */
const expectPasses = async (path: string, source: string) =>
  expect(await importErrors(path, source)).toEqual([]);

describe('the holes around the layering, closed', () => {
  it("fails a bare built-in ('fs', not 'node:fs'), imported or import()ed, where no Node is allowed", async () => {
    const analysis = await importErrors(
      'main/core/analysis/fixture.ts',
      "export { readFileSync } from 'fs';\n",
    );
    expect(analysis).toHaveLength(1);
    expect(analysis[0]).toMatch(/analysis and model are pure/);
    const shared = await importErrors('shared/fixture.ts', "export { readFile } from 'fs/promises';\n");
    expect(shared).toHaveLength(1);
    expect(shared[0]).toMatch(/runs where Node is not/);
    const dynamic = await importErrors('shared/fixture.ts', "export const fs = import('fs');\n");
    expect(dynamic).toEqual([
      expect.stringMatching(/^'fs' may not be imported here: this layer runs where Node is not/),
    ]);
    await expectPasses('main/core/sampling/fixture.ts', "export { readFileSync } from 'fs';\n");
  });

  it('fails child_process in the monitor, in both spellings, and passes it in actions', async () => {
    for (const spec of ['child_process', 'node:child_process']) {
      const errors = await importErrors('main/core/monitor/fixture.ts', `export { spawn } from '${spec}';\n`);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/it starts no process/);
    }
    await expectPasses('main/core/actions/fixture.ts', "export { spawn } from 'node:child_process';\n");
  });

  it("fails a hook reaching past the hook sampler into one platform's sampling code, and passes the sampler", async () => {
    for (const path of ['main/hooks/fixture.ts', 'main/core/hooks-setup/fixture.ts']) {
      const into = path.startsWith('main/hooks') ? '../core/sampling' : '../sampling';
      const errors = await importErrors(path, `export { readCwds } from '${into}/linux/proc-cwd';\n`);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/through sampling\/hook-sampler\.ts/);
      await expectPasses(path, `export { cwdOf } from '${into}/hook-sampler';\n`);
    }
  });

  it('fails typeof import(…), import x = require(…) and require(…), and passes the import declarations they stand for', async () => {
    const typeQuery = await importErrors(
      'main/core/monitor/fixture.ts',
      "export type Keeps = typeof import('../storage/keeps');\n",
    );
    expect(typeQuery).toEqual([expect.stringMatching(/a type import\(…\) escapes the layering/)]);
    const required = await importErrors(
      'main/core/monitor/fixture.ts',
      "import keeps = require('../storage/keeps');\nexport const k = keeps;\n",
    );
    expect(required).toEqual([expect.stringMatching(/import x = require\(…\) escapes the layering/)]);
    expect(
      await importErrors(
        'main/core/monitor/fixture.ts',
        "export const keeps = require('../storage/keeps');\n",
      ),
    ).toEqual([expect.stringMatching(/require\(…\) escapes the layering/)]);
    await expectPasses(
      'main/core/monitor/fixture.ts',
      "import type * as Attribution from '../analysis/attribution';\nexport type A = typeof Attribution;\n",
    );
  });

  it('fails process.getBuiltinModule outside the launcher, and passes it in bin/corral.mjs', async () => {
    const source = "export const fs = process.getBuiltinModule('node:fs');\n";
    expect(await importErrors('main/core/analysis/fixture.ts', source)).toEqual([
      expect.stringMatching(/process.getBuiltinModule escapes the layering/),
    ]);
    await expectPasses('bin/corral.mjs', source);
  });

  it('fails a new file at the main/core root, and passes one that is listed', async () => {
    const source = "import type { Settings } from '../../shared/model';\nexport type S = Settings;\n";
    const errors = await importErrors('main/core/new-root-file.ts', source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/a new file at the main\/core root: put it in a folder/);
    await expectPasses('main/core/service.ts', source);
  });

  it("fails one platform's sampling code importing the other's, either way", async () => {
    const linux = await importErrors(
      'main/core/sampling/linux/fixture.ts',
      "export { DarwinSampler } from '../darwin/darwin-sampler';\n",
    );
    expect(linux).toEqual([
      "main/core/sampling/linux may not import main/core/sampling/darwin: one platform's code never needs the other's",
    ]);
    const darwin = await importErrors(
      'main/core/sampling/darwin/fixture.ts',
      "export { LinuxSampler } from '../linux/linux-sampler';\n",
    );
    expect(darwin).toHaveLength(1);
    expect(darwin[0]).toMatch(/^main\/core\/sampling\/darwin may not import main\/core\/sampling\/linux/);
    await expectPasses('main/core/sampling/linux/fixture.ts', "export { readEach } from '../read-each';\n");
  });

  it('fails the contract (the shared/ root) importing its words, and passes the words importing the contract', async () => {
    const words = await importErrors(
      'shared/fixture.ts',
      "export { formatDuration } from './words/format';\n",
    );
    expect(words).toEqual([
      expect.stringMatching(/^the contract \(files at the shared\/ root\) may not import shared\/words\//),
    ]);
    const typeOnly = await importErrors(
      'shared/fixture.ts',
      "import type { PortHolding } from './words/port-history';\nexport type P = PortHolding;\n",
    );
    expect(typeOnly).toHaveLength(1);
    await expectPasses('shared/words/fixture.ts', "export type { GroupView } from '../model';\n");
    await expectPasses(
      'main/cli/fixture.ts',
      "export { formatDuration } from '../../shared/words/format';\n",
    );
  });

  it('fails the CLI reaching past the core facade, or into the renderer, and passes the facade and shared/', async () => {
    const storage = await importErrors(
      'main/cli/commands/fixture.ts',
      "import { loadKeeps } from '../../core/storage/keeps';\nexport const keeps = loadKeeps;\n",
    );
    expect(storage).toEqual([expect.stringMatching(/^main\/cli may not import main\/core\/storage/)]);
    const service = await importErrors(
      'main/cli/fixture.ts',
      "export type { CorralService } from '../core/service';\n",
    );
    expect(service).toEqual([expect.stringMatching(/^main\/cli may not import main\/core \(/)]);
    for (const spec of ['../../renderer/src/App', '../../renderer/src/shared-ui/format'])
      expect(await importErrors('main/cli/fixture.ts', `export * from '${spec}';\n`)).toEqual([
        expect.stringMatching(/^main\/cli may not import renderer/),
      ]);
    await expectPasses(
      'main/cli/fixture.ts',
      "export { keepNow } from '../core/facade/keeps-now';\nexport { stopTargets } from '../../shared/stop-targets';\n",
    );
  });
});
