// Who answers the agents' hooks on the endpoint's port, in words for the CLI (`corral hooks status`'s
// "Hook service" line) and the desktop's Hooks page: the state first, then what the hooks do meanwhile.
import type { HookEndpointView, HooksAskingService } from '../hook-endpoint';

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
  const at = view.socket ?? 'the hook socket';
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
    case 'not-listening':
      return {
        tone: 'todo',
        badge: 'no service',
        summary: `No Corral answers on ${at}: no Corral service runs, or it could not take the socket (its log says why).`,
        meaning: `${capitalized(meanwhile)}. A running Corral (the app, corral watch, corral serve, corral service) answers them.`,
      };
    case 'not-answering':
      return {
        tone: 'problem',
        badge: 'hung',
        summary: `${at} took the connection but did not answer within 1 s (a hung or overloaded Corral).`,
        meaning:
          'The hook client starts a hook process of its own only when nothing listens, so meanwhile the agents get no note: restart the Corral service.',
      };
    case 'not-yours':
      return {
        tone: 'problem',
        badge: 'not yours',
        summary: `${view.detail ?? `${at} is not yours`}: the hook client never asks it.`,
        meaning: `${capitalized(meanwhile)}. Restart Corral (it makes the folder 0700 and its own socket), or remove what is there.`,
      };
    case 'token-refused':
    case 'other-user':
    case 'not-corral':
      return {
        tone: 'problem',
        badge: 'another program',
        summary: `Something other than Corral answers on ${at} (${view.detail ?? 'not Corral'}).`,
        meaning: `The hook client gives no note while it does: stop that program (it is yours) and restart Corral.`,
      };
    case 'unreadable':
      return {
        tone: 'problem',
        badge: 'unreadable',
        summary: `Corral cannot read ${at}: ${view.detail ?? 'unreadable'}.`,
        meaning: `${capitalized(meanwhile)}.`,
      };
  }
}

/** What Claude Code's http hooks cannot do, said wherever they are installed or reported. */
export const HTTP_HOOKS_CANNOT_AUTHENTICATE =
  "Claude Code's http hooks cannot tell who listens on their port; Corral installs them only on a port below net.ipv4.ip_unprivileged_port_start, which only root may bind";

/** The sentence on the http hooks' port (null without http hooks), the same for the CLI and the page. */
export function httpHooksWords(view: Pick<HookEndpointView, 'http' | 'path'>): string | null {
  const http = view.http;
  if (!http) return null;
  const at = `127.0.0.1:${http.port}`;
  let said: string;
  switch (http.state) {
    case 'answering':
      said = `A running Corral answers the http hooks on ${at}.`;
      break;
    case 'other-user':
      said = `Another user holds the http hooks' port ${at} (uid ${http.uid ?? '?'}): the token is not sent to it, but Claude Code posts its tool calls there and believes the answers. Remove the http hooks (\`corral hooks install\` installs the command hooks in their place).`;
      break;
    case 'not-listening':
      said = `Nothing answers on ${at}, the http hooks' port: they get no note until a Corral service takes it.`;
      break;
    case 'token-refused':
      said = `The Corral on ${at} refuses the token in ${view.path}: it read another one. Restart it.`;
      break;
    case 'not-answering':
      said = `${at}, the http hooks' port, took the connection but did not answer within 1 s.`;
      break;
    case 'none':
      said = `The http hooks have no port: ${view.path} is missing; run \`corral hooks install --http\` again.`;
      break;
    default:
      said = `The http hooks' port ${at} cannot be asked: ${http.detail ?? http.state}.`;
  }
  const refused = http.fetchRefused
    ? ` Port ${http.port} is one that fetch clients refuse to connect to (the Fetch Standard's bad ports), so an agent's http hooks may never reach it: run \`corral hooks install --http\` again to move them to another.`
    : '';
  return `${said}${refused} ${HTTP_HOOKS_CANNOT_AUTHENTICATE}.`;
}
