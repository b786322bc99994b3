// Who answers the agents' hooks on the endpoint's port, as `hooks:endpoint` answers it; in words for
// the CLI and the desktop's Hooks page in shared/words/hook-endpoint-words.ts.

/**
 * Who answers the hooks: `state` for the command hooks on the Unix socket in the data directory,
 * `http.state` for http hooks on the endpoint file's port (asked with the token only when its listener
 * is the user's own):
 * - `none`: there is no endpoint file (http: no port to ask);
 * - `answering`: a running Corral answers (http: with this token);
 * - `not-listening`: nothing listens (no service runs, or it could not take the socket or port);
 * - `not-answering`: something accepts the connection but says nothing before the deadline;
 * - `token-refused`: a Corral answers on the port but refuses the file's token (it read another one);
 * - `not-corral`: something else answers there;
 * - `unreadable`: the endpoint file or the socket cannot be read (`detail` says why);
 * - `not-yours` (socket): the hooks folder is open to others, or the socket is not the user's: never asked;
 * - `other-user` (http): another user's process holds the port (`uid`): the token is not sent to it.
 */
export type HookEndpointState =
  | 'none'
  | 'answering'
  | 'not-listening'
  | 'not-answering'
  | 'token-refused'
  | 'not-corral'
  | 'unreadable'
  | 'not-yours'
  | 'other-user';

/** Who answers on the http hooks' port (see HookEndpointState). */
export interface HttpHooksProbe {
  state: HookEndpointState;
  /** The port the endpoint file names (0 when it names none). */
  port: number;
  /** The owner of the listener that holds the port, when it is another user. */
  uid?: number;
  detail?: string;
  /** The port is one fetch clients refuse to connect to (an endpoint written before they were avoided). */
  fetchRefused?: boolean;
}

/** The installed hooks that ask the running Corral, by agent label. */
export interface HooksAskingService {
  /** Agents whose command hooks run the hook client (it falls back to a hook process of its own). */
  client: string[];
  /** Agents with http hooks (no fallback: without an answer they say nothing), and the ports they post to. */
  http: { label: string; port: number }[];
}

/** The `hooks:endpoint` answer: the probe of the endpoint file's port, and which hooks ask it. */
export interface HookEndpointView {
  /** Who answers the command hooks on the Unix socket. */
  state: HookEndpointState;
  /** The endpoint file (the http hooks' port and token). */
  path: string;
  /** The Unix socket the command hooks ask. */
  socket?: string;
  /** The port the endpoint file names, when it names one. */
  port?: number;
  detail?: string;
  /** Who answers on the http hooks' port, when http hooks are installed. */
  http?: HttpHooksProbe;
  asking: HooksAskingService;
}
