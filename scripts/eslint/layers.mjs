// The layering (ARCHITECTURE.md) as allow-lists: each folder names the folders it may import from, as
// VS Code's layering rules do. An import of any other folder, or from a folder not listed here, fails
// `npm run lint`: a new back edge, or a new folder nobody placed, cannot pass unnoticed.
import { dirname, relative, resolve, sep } from 'node:path';

const CORE = 'main/core';
const core = (...names) => names.map((n) => `${CORE}/${n}`);

const MONITOR = `${CORE}/monitor`;
const rooms = (...names) => names.map((n) => `${MONITOR}/${n}`);
/** What the monitor and each of its rooms may import from below it. */
const BELOW_MONITOR = ['shared', ...core('model', 'analysis', 'sampling')];

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
  [`${CORE}/files`]: ['shared'],
  [`${CORE}/sampling`]: ['shared', ...core('model', 'analysis', 'os')],
  [`${CORE}/config`]: ['shared', ...core('analysis')],
  [`${CORE}/storage`]: ['shared', ...core('model', 'analysis', 'files')],
  [`${CORE}/provenance`]: ['shared', ...core('model', 'analysis', 'files', 'sampling')],
  // The agents' own session lists, read by running their CLIs (claude agents --json, qwen sessions ps).
  [`${CORE}/agent-sessions`]: ['shared', ...core('model', 'analysis')],
  // The monitor's rooms (ARCHITECTURE.md): the table of what is tracked, the incidents recorded of it,
  // the checks over both, when to look (schedule), the views built of it; monitor.ts runs them all.
  [MONITOR]: [...BELOW_MONITOR, ...rooms('table', 'incidents', 'checks', 'schedule', 'views')],
  [`${MONITOR}/table`]: BELOW_MONITOR,
  [`${MONITOR}/incidents`]: [...BELOW_MONITOR, ...rooms('table')],
  [`${MONITOR}/checks`]: [...BELOW_MONITOR, ...rooms('table', 'incidents')],
  [`${MONITOR}/schedule`]: [...BELOW_MONITOR, ...rooms('table')],
  [`${MONITOR}/views`]: [...BELOW_MONITOR, ...rooms('table')],
  // The one view feed every front end's pushes come from: the monitor's views, decorated with provenance.
  [`${CORE}/view-feed`]: ['shared', ...core('host', 'monitor', 'provenance'), ...rooms('views')],
  [`${CORE}/policies`]: ['shared', ...core('model', 'analysis')],
  [`${CORE}/actions`]: ['shared', ...core('model', 'analysis', 'os', 'sampling', 'provenance', 'storage')],
  [`${CORE}/snapshot`]: ['shared', ...core('model', 'analysis', 'sampling', 'provenance', 'agent-sessions')],
  // storage: the hook endpoint and client are written in the user's own data directory (own-data-dir.ts).
  [`${CORE}/hooks-setup`]: ['shared', ...core('analysis', 'files', 'sampling', 'storage')],
  [`${CORE}/user-service`]: ['shared', ...core('hooks-setup')],
  // The service (service.ts, create-service.ts, service-requests.ts) assembles the core's parts.
  [CORE]: [
    'shared',
    ...core(
      'model',
      'analysis',
      'os',
      'host',
      'files',
      'sampling',
      'config',
      'storage',
      'provenance',
      'monitor',
      'agent-sessions',
    ),
    ...core('policies', 'actions', 'snapshot', 'hooks-setup', 'user-service', 'view-feed'),
    ...rooms('views'),
  ],
  [`${CORE}/worker`]: ['shared', CORE, ...core('view-feed')],
  // What the CLI may use of the core: one-shot commands over a snapshot, stops, keeps and history, and
  // the service, config, hooks and user service a long-lived or set-up command needs.
  [`${CORE}/facade`]: [
    'shared',
    CORE,
    ...core('model', 'analysis', 'config', 'sampling', 'storage', 'provenance', 'actions', 'policies'),
    ...core('snapshot', 'hooks-setup', 'user-service', 'agent-sessions'),
  ],
  // The desktop app's worker thread: the service's host there, answering agents' hooks beside it as
  // `corral watch` does (main/cli/cli-service.ts).
  'main/worker-host': ['shared', 'main/hooks', CORE, ...core('worker')],
  'main/transport': ['shared', CORE],
  'main/hooks': ['shared', ...core('model', 'analysis', 'files', 'sampling', 'storage', 'hooks-setup')],
  'main/metrics': ['shared', 'main/common', CORE, ...core('files')],
  'main/serve': ['shared', 'main/common', 'main/transport', CORE],
  // The CLI reaches the core through its facade only (one-shot commands, the service, hooks and the user
  // service: main/core/facade), and hosts the front ends it starts (serve, metrics, the hook command).
  'main/cli': ['shared', 'main/common', 'main/hooks', 'main/metrics', 'main/serve', `${CORE}/facade`],
  // The packaged app runs the CLI when started as `corral` (electron/index.ts).
  'main/electron': ['shared', 'main/cli', 'main/transport', CORE, ...core('storage', 'worker')],
};

/** The files at the core's root (the service and what it assembles); a new one gets a folder instead. */
export const CORE_ROOT_FILES = [
  'create-service.ts',
  'keep-requests.ts',
  'release-start-up-pages.ts',
  'service-requests.ts',
  'service.ts',
  'stop-recorders.ts',
];

/** Folders inside one layer that may not import each other: one platform's sampling code never runs on the other. */
const APART = [[`${CORE}/sampling/linux`, `${CORE}/sampling/darwin`]];

/**
 * Imports across APART that were there before the rule, importer → imported: darwin reuses three
 * platform-neutral helpers that live under linux/. They belong in a neutral file of sampling/; until
 * they move, these edges (and no new one) pass.
 */
const APART_EXISTING = new Set([
  `${CORE}/sampling/darwin/proc-info-decoders.ts -> ${CORE}/sampling/linux/socket-table`,
  `${CORE}/sampling/darwin/proc-info-decoders.ts -> ${CORE}/sampling/linux/stat-parser`,
  `${CORE}/sampling/darwin/procargs-decoder.ts -> ${CORE}/sampling/linux/stat-parser`,
  `${CORE}/sampling/darwin/darwin-process-files.ts -> ${CORE}/sampling/linux/listening-ports`,
]);

const inside = (path, folder) => path.startsWith(`${folder}/`);

/** Why importing repository path `to` from `from` crosses APART, or null when it does not. */
function apartProblem(from, to) {
  if (APART_EXISTING.has(`${from} -> ${to}`)) return null;
  for (const pair of APART) {
    for (const [mine, theirs] of [pair, [...pair].reverse()]) {
      if (inside(from, mine) && inside(to, theirs))
        return `${mine} may not import ${theirs}: one platform's code never needs the other's`;
    }
  }
  return null;
}

// Inside shared/: the contract between processes is the files at its root; the words every front end
// shows (shared/words/) are about the contract and may import it, never the reverse.
const CONTRACT = 'shared';
const WORDS = `${CONTRACT}/words`;

/** Why importing repository path `to` from `from` makes the contract depend on its words, or null. */
function contractProblem(from, to) {
  if (dirname(from) !== CONTRACT || !inside(to, WORDS)) return null;
  return `the contract (files at the ${CONTRACT}/ root) may not import ${WORDS}/: the words are about the contract, not part of it`;
}

/**
 * The layer a repository path belongs to: a folder of LAYERS, `main/core/<folder>` for any core folder,
 * `main/core/<folder>/<room>` for a room LAYERS names inside one (the monitor's).
 */
export function layerOf(path) {
  const parts = path.split('/');
  if (parts[0] === 'main' && parts[1] === 'core') {
    if (parts.length <= 3) return CORE;
    const room = `${CORE}/${parts[2]}/${parts[3]}`;
    return parts.length > 4 && room in LAYERS ? room : `${CORE}/${parts[2]}`;
  }
  if (parts[0] === 'main') return parts.length > 2 ? `main/${parts[1]}` : 'main';
  return parts[0];
}

/**
 * A way round the allow-lists, as the folders it passes through (first one last again), or null: a
 * folder that may import another that may import it back, by however many steps, is no layering.
 */
export function allowedCycle(layers) {
  const done = new Set();
  const visit = (folder, path) => {
    const at = path.indexOf(folder);
    if (at >= 0) return [...path.slice(at), folder];
    if (done.has(folder)) return null;
    for (const next of layers[folder] ?? []) {
      const cycle = visit(next, [...path, folder]);
      if (cycle) return cycle;
    }
    done.add(folder);
    return null;
  };
  for (const folder of Object.keys(layers)) {
    const cycle = visit(folder, []);
    if (cycle) return cycle;
  }
  return null;
}

/** The ESLint rule `layers/allowed-imports`, for files under `root`, with `layers` as its allow-lists. */
export function layersPlugin(root, layers = LAYERS) {
  const repoPath = (absolute) => relative(root, absolute).split(sep).join('/');
  const cycle = allowedCycle(layers);
  return {
    rules: {
      'allowed-imports': {
        meta: { type: 'problem', schema: [] },
        create(context) {
          const from = layerOf(repoPath(context.filename));
          const allowed = layers[from];
          if (cycle?.includes(from)) {
            return {
              Program: (node) =>
                context.report({
                  node,
                  message: `the allow-lists go round: ${cycle.join(' → ')}; one of these imports must go (scripts/eslint/layers.mjs)`,
                }),
            };
          }
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
            const target = resolve(dirname(context.filename), spec);
            const to = layerOf(repoPath(target));
            if (to !== from && !allowed.includes(to)) {
              context.report({
                node,
                message: `${from} may not import ${to} (it may import: ${allowed.join(', ') || 'nothing outside itself'}); see ARCHITECTURE.md`,
              });
              return;
            }
            const file = repoPath(context.filename);
            const imported = repoPath(target);
            const problem = apartProblem(file, imported) ?? contractProblem(file, imported);
            if (problem !== null) context.report({ node, message: problem });
          };
          return {
            ImportDeclaration: (n) => check(n.source),
            ExportNamedDeclaration: (n) => check(n.source),
            ExportAllDeclaration: (n) => check(n.source),
            ImportExpression: (n) => check(n.source),
          };
        },
      },
      // no-restricted-imports checks import and export declarations only: its patterns, for import().
      'dynamic-imports': {
        meta: {
          type: 'problem',
          schema: [
            { type: 'object', properties: { patterns: { type: 'array' } }, additionalProperties: false },
          ],
        },
        create(context) {
          const patterns = (context.options[0]?.patterns ?? []).map((p) => ({
            ...p,
            re: new RegExp(p.regex),
          }));
          return {
            ImportExpression(node) {
              const spec = node.source.value;
              if (typeof spec !== 'string') return;
              const hit = patterns.find((p) => p.re.test(spec));
              if (hit)
                context.report({ node, message: `'${spec}' may not be imported here: ${hit.message}` });
            },
          };
        },
      },
      'core-root-files': {
        meta: { type: 'problem', schema: [] },
        create(context) {
          const path = repoPath(context.filename);
          if (layerOf(path) !== CORE || CORE_ROOT_FILES.includes(path.slice(CORE.length + 1))) return {};
          return {
            Program: (node) =>
              context.report({
                node,
                message: `a new file at the ${CORE} root: put it in a folder (the root holds only CORE_ROOT_FILES in scripts/eslint/layers.mjs)`,
              }),
          };
        },
      },
    },
  };
}
