import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** One no-restricted-imports pattern: imports matching `regex` fail with `message`. */
const rule = (regex, message) => ({ regex, message });
const NO_ELECTRON = rule('^electron(/|$)', "only main/electron and the preload import 'electron'");
const NODE = rule('^node:', 'this layer runs where Node is not: it imports only shared/');
const outside = (...folders) =>
  rule(`(^|/)(${folders.join('|')})/`, `this layer imports only shared/ (not ${folders.join(', ')})`);
const CORE = [
  NO_ELECTRON,
  rule('(^|/)(cli|serve|electron|transport|renderer|preload|hooks)/', 'the core never imports a front end'),
];
const ANALYSIS = [
  rule('^node:|^(koffi|libsql|systeminformation)$', 'analysis is pure: no I/O (that lives in sampling)'),
  rule('(^|/)sampling/', 'analysis takes records (core/model), not samplers'),
  rule(
    '(^|/)(monitor|actions|storage|snapshot|config|worker|host|os)/|create-service|service-requests',
    'analysis sits below the monitor, actions and storage and never imports them',
  ),
];
const layer = (files, patterns) => ({
  files,
  ignores: ['test/**', 'bench/**', 'scripts/**'],
  rules: { 'no-restricted-imports': ['error', { patterns }] },
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
  // The layering (ARCHITECTURE.md), enforced: a wrong-way import fails `npm run lint`. In a flat config
  // the last matching block sets a rule, so each block below lists every restriction its folder has.
  layer(['**/*.{ts,tsx,mts}'], [NO_ELECTRON]),
  layer(['main/electron/**', 'preload/**'], []),
  layer(['main/core/**'], CORE),
  layer(['main/core/analysis/**'], [...CORE, ...ANALYSIS]),
  layer(['shared/**'], [NO_ELECTRON, NODE, outside('main', 'renderer', 'preload')]),
  layer(['renderer/**/*.{ts,tsx}'], [NO_ELECTRON, NODE, outside('main', 'preload')]),
  layer(['preload/**'], [NODE, outside('main', 'renderer')]),
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
