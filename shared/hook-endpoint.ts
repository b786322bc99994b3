// Who answers the agents' hooks on the endpoint's port, in words for the CLI (`corral hooks status`'s
// "Hook service" line) and the desktop's Hooks page: the state first, then what the hooks do meanwhile.

/**
 * Who answers on the port the endpoint file names, asked as a hook would be (the token in its header):
 * - `none`: there is no endpoint file (no Corral service has answered hooks with this data directory);
 * - `answering`: a running Corral answers with this token;
 * - `not-listening`: nothing listens on the port (no service runs, or it could not take the port);
 * - `not-answering`: something accepts the connection but says nothing before the deadline;
 * - `token-refused`: a Corral answers there but refuses the file's token (it read another one);
 * - `not-corral`: something else answers there;
 * - `unreadable`: the endpoint file cannot be read (`detail` says why).
 */
export type HookEndpointState =
  'none' | 'answering' | 'not-listening' | 'not-answering' | 'token-refused' | 'not-corral' | 'unreadable';

/** The installed hooks that ask the running Corral, by agent label. */
export interface HooksAskingService {
  /** Agents whose command hooks run the hook client (it falls back to the one-shot reader). */
  client: string[];
  /** Agents with http hooks (no fallback: without an answer they say nothing), and the ports they post to. */
  http: { label: string; port: number }[];
}

/** The `hooks:endpoint` answer: the probe of the endpoint file's port, and which hooks ask it. */
export interface HookEndpointView {
  state: HookEndpointState;
  /** The endpoint file. */
  path: string;
  /** The port it names, when it names one. */
  port?: number;
  detail?: string;
  asking: HooksAskingService;
}

/** "a", "a and b", "a, b and c". */
export function listLabels(labels: readonly string[]): string {
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/** What the hooks do while no Corral answers them. */
export function hooksMeanwhile(asking: HooksAskingService): string {
  const parts: string[] = [];
  if (asking.client.length > 0) {
    parts.push(
      `the hook client (${listLabels(asking.client)}) falls back to starting a hook process for each call`,
    );
  }
  const http = [...new Set(asking.http.map((h) => h.label))];
  if (http.length > 0) parts.push(`the http hooks (${listLabels(http)}) get no answer, so no note`);
  return parts.length > 0 ? parts.join('; ') : 'hooks fall back to starting a hook process for each call';
}

/** The http hooks that post to another port than the endpoint's (installed before it changed), or null. */
export function hooksPostingElsewhere(view: Pick<HookEndpointView, 'port' | 'asking'>): string | null {
  const elsewhere = view.asking.http.filter((h) => view.port !== undefined && h.port !== view.port);
  if (elsewhere.length === 0) return null;
  const labels = listLabels([...new Set(elsewhere.map((h) => h.label))]);
  const ports = [...new Set(elsewhere.map((h) => h.port))].join(', ');
  return `The http hooks of ${labels} post to port ${ports}, not ${view.port}`;
}

export interface HookEndpointWords {
  tone: 'ok' | 'todo' | 'problem';
  /** A word or two, for a badge. */
  badge: string;
  /** Who answers, or why no Corral does. */
  summary: string;
  /** What that means for the agents' tool calls, and what to do. */
  meaning: string;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The desktop's words for the hook service's state (the CLI says the same in one line). */
export function hookEndpointWords(view: HookEndpointView): HookEndpointWords {
  const at = `127.0.0.1:${view.port}`;
  const meanwhile = hooksMeanwhile(view.asking);
  const asked = view.asking.client.length > 0 || view.asking.http.length > 0;
  switch (view.state) {
    case 'answering':
      return {
        tone: 'ok',
        badge: 'answering',
        summary: `A running Corral answers the agents' hooks on ${at}.`,
        meaning: asked
          ? "After each shell command, the agent's note on what the command left running comes from it, without starting Corral for the call."
          : 'No installed hook asks it yet: hooks installed from this page ask it first.',
      };
    case 'none':
      return {
        tone: 'todo',
        badge: 'no service',
        summary: 'No Corral service has answered hooks here yet.',
        meaning: `${capitalized(meanwhile)}. A running Corral (the app, corral watch, corral serve, corral service) answers them.`,
      };
    case 'not-listening':
      return {
        tone: 'problem',
        badge: 'not answering',
        summary: `Nothing answers on ${at}, the port the hooks were given: no Corral service runs, or it could not take the port (its log says why).`,
        meaning: `Until one answers, ${meanwhile}.`,
      };
    case 'not-answering':
      return {
        tone: 'problem',
        badge: 'hung',
        summary: `${at}, the port the hooks were given, took the connection but did not answer within 1 s (a hung service, or another program).`,
        meaning: `Until a Corral answers, ${meanwhile}.`,
      };
    case 'token-refused':
      return {
        tone: 'problem',
        badge: 'token refused',
        summary: `The Corral on ${at} refuses the hooks' token: it read another one (the token file was written again after it started, or it uses another data directory).`,
        meaning: `Until it is restarted, ${meanwhile}.`,
      };
    case 'not-corral':
      return {
        tone: 'problem',
        badge: 'another program',
        summary: `Something other than Corral answers on ${at} (${view.detail ?? 'not Corral'}), the port the hooks were given.`,
        meaning: `Until a Corral answers there, ${meanwhile}. Stop that program, or remove ${view.path} and restart Corral (it picks another port), then install the hooks again.`,
      };
    case 'unreadable':
      return {
        tone: 'problem',
        badge: 'unreadable',
        summary: `Corral cannot read ${view.path}: ${view.detail ?? 'unreadable'}.`,
        meaning: `${capitalized(meanwhile)}.`,
      };
  }
}
