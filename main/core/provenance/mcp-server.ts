import type { ProcessRole } from '../../../shared/model';
import { isShellName } from '../../../shared/shells';

/** Package and module names that say "MCP server", each with where its name is. */
const MCP_NAME_PATTERNS: readonly RegExp[] = [
  /^@modelcontextprotocol\/server-([a-z0-9][\w.-]*)$/i,
  /^(?:@[\w.-]+\/)?mcp[-_]server[-_]([a-z0-9][\w.-]*)$/i,
  /^(?:@[\w.-]+\/)?([a-z0-9][\w.-]*?)[-_]mcp(?:[-_]server)?$/i,
  /^@([\w.-]+)\/mcp(?:[-_]server)?$/i,
  /^(?:@[\w.-]+\/)?mcp[-_]([a-z0-9][\w.-]*)$/i,
  /^mcp\/([a-z0-9][\w.-]*)$/i, // docker images: `docker run -i mcp/<name>`
];

const PACKAGE_IN_PATH = /\/node_modules\/((?:@[\w.-]+\/)?[\w.-]+)(?:\/|$)/g;

function lastSegment(arg: string): string {
  // A script inside an installed package (`…/node_modules/@scope/pkg/dist/index.js`): the package.
  const packages = [...arg.matchAll(PACKAGE_IN_PATH)];
  if (packages.length > 0 && !packages.at(-1)![1]!.startsWith('.')) return packages.at(-1)![1]!;
  if (arg.startsWith('@') || arg.startsWith('mcp/')) return arg; // scoped package or image name
  const slash = arg.lastIndexOf('/');
  return slash >= 0 ? arg.slice(slash + 1) : arg;
}

/**
 * The MCP server a command line runs, when its command line says so (`npx -y
 * @modelcontextprotocol/server-filesystem /srv` → `filesystem`, `uvx mcp-server-git` → `git`,
 * `npx @playwright/mcp@latest` → `playwright`, `python -m mcp_server_time` → `time`); null otherwise.
 */
export function mcpServerName(argv: readonly string[]): string | null {
  for (const raw of argv.slice(0, 12)) {
    if (raw.startsWith('-') || raw.length > 200) continue;
    const arg = lastSegment(raw.replace(/(.)@[^/@]*$/, '$1').replace(/\.(m?js|py|ts)$/, ''));
    for (const pattern of MCP_NAME_PATTERNS) {
      const m = pattern.exec(arg);
      if (m) return m[1]!.replace(/_/g, '-').toLowerCase();
    }
  }
  return null;
}

export interface RoleFacts {
  /** The process is the agent (main process, relaunch, daemon). */
  isAgent: boolean;
  /** Attributed to an agent at all. */
  attributed: boolean;
  /**
   * The agent's direct child this process descends from (itself if it is one), when that chain is still
   * alive; null when it was reparented away from the agent or the agent is gone.
   */
  topChild: {
    argv: readonly string[];
    ownSession: boolean;
    toolCallShell: boolean;
    /** The server its agent's MCP configuration names for this command line, if any. */
    configured?: string | null;
  } | null;
  /** For a reparented process: the server its command line matches in its agent's configuration. */
  configured?: string | null;
  /** The process carries an agent's tool-call id (Codex `CODEX_TOOL_CALL_ID`) or its group leader is a tool-call shell. */
  toolCallMarked: boolean;
  /** Its own command line. */
  argv: readonly string[];
  /** It leads its own session (tool calls do; stdio MCP servers stay in the agent's). */
  ownSession: boolean;
}

function isShellCommand(argv: readonly string[]): boolean {
  return argv.length >= 2 && isShellName(argv[0]!) && argv.slice(1).some((a) => /^-[a-z]*c[a-z]*$/.test(a));
}

/**
 * What a process is to its agent. A tool call is run as a shell (`bash -c …`), in its own session for
 * every agent in shared/AGENTS.md; an MCP server is a long-lived stdio child that is no shell and whose
 * command line either matches a server in its agent's MCP configuration (named as configured) or says
 * that it is one. Anything else an agent runs (ripgrep, language servers) has no
 * role rather than a guessed one.
 */
export function classifyRole(f: RoleFacts): { role: ProcessRole; mcpServer?: string } {
  if (f.isAgent) return { role: 'agent' };
  if (!f.attributed) return { role: null };
  if (f.toolCallMarked) return { role: 'tool-call' };
  if (f.topChild) {
    const c = f.topChild;
    if (c.toolCallShell || c.ownSession || isShellCommand(c.argv)) return { role: 'tool-call' };
    const name = c.configured ?? mcpServerName(c.argv) ?? mcpServerName(f.argv);
    return name ? { role: 'mcp-server', mcpServer: name } : { role: null };
  }
  // Reparented: its command line, and whether it left the agent's session, are what is left to tell.
  const name = f.ownSession ? null : (f.configured ?? mcpServerName(f.argv));
  if (name) return { role: 'mcp-server', mcpServer: name };
  return { role: 'tool-call' };
}
