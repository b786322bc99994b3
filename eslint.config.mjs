import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { layersPlugin } from './scripts/eslint/layers.mjs';

/** One no-restricted-imports pattern: imports matching `regex` fail with `message`. */
const rule = (regex, message) => ({ regex, message });
const NO_ELECTRON = rule('^electron(/|$)', "only main/electron and the preload import 'electron'");
/** A Node built-in, as `node:fs` or as bare `fs` / `fs/promises`. */
const BUILTIN = `^(node:|(${builtinModules.filter((m) => !m.includes('/')).join('|')})(/|$))`;
const NODE = rule(BUILTIN, 'this layer runs where Node is not: it imports only shared/');
const PURE = rule(
  `${BUILTIN}|^(koffi|libsql|systeminformation)$`,
  'analysis and model are pure: no I/O (that lives in sampling)',
);
const NO_SPAWN = rule(
  '^(node:)?child_process$',
  'the monitor watches and decides; it starts no process (actions/ and os/ do)',
);
const PAST_HOOK_SAMPLER = rule(
  '/sampling/(linux|darwin)/',
  'hooks read the system through sampling/hook-sampler.ts (the service through service-hook-reads.ts)',
);
/** Ways around the import rules above: each would import without an import declaration they check. */
const SIDE_DOORS = [
  {
    selector: 'TSImportType',
    message: "a type import(…) escapes the layering: `import type { X } from '…'` instead",
  },
  {
    selector: 'TSImportEqualsDeclaration[moduleReference.type="TSExternalModuleReference"]',
    message: 'import x = require(…) escapes the layering: use an import declaration',
  },
  {
    selector: 'CallExpression[callee.name="require"]',
    message: 'require(…) escapes the layering: use an import declaration',
  },
];
const GET_BUILTIN = {
  selector:
    'MemberExpression[property.name="getBuiltinModule"], MemberExpression[property.value="getBuiltinModule"]',
  message: 'process.getBuiltinModule escapes the layering: import the node: module',
};
/** Product code: everything that ships (tests, bench and scripts may reach anywhere). */
const PRODUCT = ['main/**', 'shared/**', 'renderer/**', 'preload/**', 'bin/**'];
const layers = layersPlugin(import.meta.dirname);
const layer = (files, patterns) => ({
  files,
  ignores: ['test/**', 'bench/**', 'scripts/**'],
  plugins: { layers },
  rules: {
    'no-restricted-imports': ['error', { patterns }],
    'layers/dynamic-imports': ['error', { patterns }],
  },
});

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['renderer/**/*.{ts,tsx}', 'main/cli/watch-ui/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // The layering (ARCHITECTURE.md), enforced: a wrong-way import fails `npm run lint`. Which folder may
  // import which is an allow-list per folder (scripts/eslint/layers.mjs); what each may import from
  // outside the repository is below. In a flat config the last matching block sets a rule, so each
  // block lists every restriction its folder has.
  {
    files: [
      'main/**/*.{ts,tsx,mts}',
      'shared/**/*.{ts,tsx,mts}',
      'renderer/**/*.{ts,tsx,mts}',
      'preload/**/*.ts',
    ],
    plugins: { layers },
    rules: { 'layers/allowed-imports': 'error', 'layers/core-root-files': 'error' },
  },
  { files: PRODUCT, rules: { 'no-restricted-syntax': ['error', ...SIDE_DOORS, GET_BUILTIN] } },
  // These two take Node's modules with getBuiltinModule on purpose: the launcher before anything is
  // imported, and node:sqlite only where the runtime has it (an import would fail to load elsewhere).
  {
    files: ['bin/corral.mjs', 'main/core/storage/sqlite-node.ts'],
    rules: { 'no-restricted-syntax': ['error', ...SIDE_DOORS] },
  },
  layer(['**/*.{ts,tsx,mts}'], [NO_ELECTRON]),
  // A command's flags are parsed only from its declaration (main/cli/command-specs.ts), which help reads too.
  {
    files: ['main/cli/**/*.{ts,tsx,mts}'],
    ignores: ['main/cli/parse-command-args.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [NO_ELECTRON],
          paths: [{ name: 'node:util', importNames: ['parseArgs'], message: 'use parseCommandArgs' }],
        },
      ],
    },
  },
  layer(['main/electron/**', 'preload/**'], []),
  layer(['main/core/monitor/**'], [NO_ELECTRON, NO_SPAWN]),
  layer(['main/hooks/**', 'main/core/hooks-setup/**'], [NO_ELECTRON, PAST_HOOK_SAMPLER]),
  layer(['main/core/analysis/**', 'main/core/model/**'], [NO_ELECTRON, PURE]),
  layer(['shared/**', 'renderer/**/*.{ts,tsx}'], [NO_ELECTRON, NODE]),
  layer(['preload/**'], [NODE]),
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
