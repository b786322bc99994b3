// The layering (ARCHITECTURE.md) as allow-lists: each folder names the folders it may import from, as
// VS Code's layering rules do. An import of any other folder, or from a folder not listed here, fails
// `npm run lint`: a new back edge, or a new folder nobody placed, cannot pass unnoticed.
import { dirname, relative, resolve, sep } from 'node:path';

const CORE = 'main/core';
const core = (...names) => names.map((n) => `${CORE}/${n}`);

/** Folder → the folders its files may import from (its own always). Paths from the repository root. */
export const LAYERS = {
  shared: [],
  renderer: ['shared'],
  preload: ['shared'],
  'main/common': ['shared'],
  [`${CORE}/model`]: ['shared'],
  [`${CORE}/analysis`]: ['shared', ...core('model')],
  [`${CORE}/os`]: ['shared'],
  [`${CORE}/host`]: ['shared'],
  [`${CORE}/sampling`]: ['shared', ...core('model', 'analysis', 'os')],
  [`${CORE}/config`]: ['shared', ...core('analysis')],
  [`${CORE}/storage`]: ['shared', ...core('model', 'analysis', 'sampling')],
  [`${CORE}/provenance`]: ['shared', ...core('model', 'analysis', 'sampling')],
  [`${CORE}/monitor`]: ['shared', ...core('model', 'analysis', 'sampling', 'provenance')],
  [`${CORE}/policies`]: ['shared', ...core('model', 'analysis')],
  [`${CORE}/actions`]: ['shared', ...core('model', 'analysis', 'os', 'sampling', 'provenance', 'storage')],
  [`${CORE}/snapshot`]: ['shared', ...core('model', 'analysis', 'sampling', 'provenance')],
  // storage: the hook endpoint and client are written in the user's own data directory (own-data-dir.ts).
  [`${CORE}/hooks-setup`]: ['shared', ...core('analysis', 'sampling', 'storage')],
  [`${CORE}/user-service`]: ['shared', ...core('hooks-setup')],
  // The service (service.ts, create-service.ts, service-requests.ts) assembles the core's parts.
  [CORE]: [
    'shared',
    ...core('model', 'analysis', 'os', 'host', 'sampling', 'config', 'storage', 'provenance', 'monitor'),
    ...core('policies', 'actions', 'snapshot', 'hooks-setup', 'user-service'),
  ],
  [`${CORE}/worker`]: ['shared', CORE, ...core('monitor')],
  // The desktop app's worker thread: the service's host there, answering agents' hooks beside it as
  // `corral watch` does (main/cli/cli-service.ts).
  'main/worker-host': ['shared', 'main/hooks', CORE, ...core('worker')],
  'main/transport': ['shared', CORE],
  'main/hooks': ['shared', ...core('model', 'analysis', 'sampling', 'storage', 'hooks-setup')],
  'main/metrics': ['shared', 'main/common', CORE, ...core('sampling')],
  'main/serve': ['shared', 'main/common', 'main/transport', CORE],
  // The watch UI shows a stop and a timeline in the renderer's words (renderer/src/stop, timeline).
  'main/cli': [
    'shared',
    'renderer',
    'main/common',
    'main/hooks',
    'main/metrics',
    'main/serve',
    CORE,
    ...core('analysis', 'config', 'sampling', 'storage', 'provenance', 'actions', 'policies'),
    ...core('snapshot', 'hooks-setup', 'user-service'),
  ],
  // The packaged app runs the CLI when started as `corral` (electron/index.ts).
  'main/electron': ['shared', 'main/cli', 'main/transport', CORE, ...core('storage', 'worker')],
};

/** The layer a repository path belongs to: a folder of LAYERS, `main/core/<folder>` for any core folder. */
export function layerOf(path) {
  const parts = path.split('/');
  if (parts[0] === 'main' && parts[1] === 'core') return parts.length > 3 ? `${CORE}/${parts[2]}` : CORE;
  if (parts[0] === 'main') return parts.length > 2 ? `main/${parts[1]}` : 'main';
  return parts[0];
}

/** The ESLint rule `layers/allowed-imports`, for files under `root`. */
export function layersPlugin(root) {
  const repoPath = (absolute) => relative(root, absolute).split(sep).join('/');
  return {
    rules: {
      'allowed-imports': {
        meta: { type: 'problem', schema: [] },
        create(context) {
          const from = layerOf(repoPath(context.filename));
          const allowed = LAYERS[from];
          const check = (node) => {
            const spec = node?.value;
            if (typeof spec !== 'string' || !spec.startsWith('.')) return;
            if (allowed === undefined) {
              context.report({
                node,
                message: `'${from}' is in no layer: give it its allow-list in scripts/eslint/layers.mjs`,
              });
              return;
            }
            const to = layerOf(repoPath(resolve(dirname(context.filename), spec)));
            if (to === from || allowed.includes(to)) return;
            context.report({
              node,
              message: `${from} may not import ${to} (it may import: ${allowed.join(', ') || 'nothing outside itself'}); see ARCHITECTURE.md`,
            });
          };
          return {
            ImportDeclaration: (n) => check(n.source),
            ExportNamedDeclaration: (n) => check(n.source),
            ExportAllDeclaration: (n) => check(n.source),
            ImportExpression: (n) => check(n.source),
          };
        },
      },
    },
  };
}
