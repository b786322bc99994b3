import { join } from 'node:path';
import {
  closeUntrusted,
  isNotFound,
  isRefusal,
  openUntrustedFile,
  readRange,
  type NoteRefusal,
} from '../files/untrusted-file';
import { codexTomlServers } from './codex-toml-servers';
import { claudeJsonServers, jsonMcpServers, type McpServerEntry } from './mcp-config-entries';

/** Where one agent's MCP configuration lives, from its environment (else its owner's home) and its cwd. */
export interface McpConfigPlace {
  agent: string;
  home: string;
  /** Claude Code's `CLAUDE_CONFIG_DIR`, Codex's `CODEX_HOME`, when the agent's environment sets them. */
  claudeConfigDir?: string;
  codexHome?: string;
  /** The agent's working directory: local-scope entries and project files are looked up for it. */
  projectDir: string | null;
  /** The agent's uid: files in its home and config dirs must be its own (a project's may be anyone's). */
  owner?: number;
}

interface CachedFile {
  checkedAt: number;
  mtimeMs: number;
  size: number;
  parsed: unknown;
}

/** How long a configuration file is trusted before its mtime is looked at again. */
export const CONFIG_RECHECK_MS = 10_000;
/** A configuration larger than this is not read. */
const CONFIG_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads agents' MCP configurations, each file parsed again only when its mtime or size changed, and its
 * mtime looked at no more than once per CONFIG_RECHECK_MS: never on every poll. Files (each agent's own
 * documentation, checked where said):
 * - claude-code: `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json` (local scope
 *   `projects[<cwd>].mcpServers`, then user scope `mcpServers`; where `claude mcp add -s user|local`
 *   writes them, observed with 2.1.197), then `<cwd>/.mcp.json` (project scope).
 * - codex: `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`, then `<cwd>/.codex/config.toml`
 *   (`[mcp_servers.<name>]`, as `codex mcp add` writes it in 0.171).
 * - gemini-cli: `<cwd>/.gemini/settings.json` then `~/.gemini/settings.json`, `mcpServers` (Gemini CLI's
 *   configuration documentation; not run here).
 * Entries come in the agent's precedence (local, project, user for Claude Code). Unreadable or
 * malformed files count as empty.
 */
export class McpConfigs {
  /** By `<owner uid>\0<path>`. */
  private readonly files = new Map<string, CachedFile>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly recheckMs = CONFIG_RECHECK_MS,
    /** Told of a configuration that could not be read for another reason than its absence. */
    private readonly note?: NoteRefusal,
  ) {}

  serversOf(place: McpConfigPlace): McpServerEntry[] {
    const cwd = place.projectDir;
    const own = place.owner;
    switch (place.agent) {
      case 'claude-code': {
        const main = join(place.claudeConfigDir ?? place.home, '.claude.json');
        const user = this.json(main, own);
        const local = cwd
          ? claudeJsonServers({ projects: (user as { projects?: unknown })?.projects }, cwd)
          : [];
        return [
          ...local,
          ...(cwd
            ? jsonMcpServers((this.json(join(cwd, '.mcp.json')) as { mcpServers?: unknown })?.mcpServers)
            : []),
          ...claudeJsonServers({ mcpServers: (user as { mcpServers?: unknown })?.mcpServers }, null),
        ];
      }
      case 'codex': {
        const home = place.codexHome ?? join(place.home, '.codex');
        return [
          ...(cwd ? this.toml(join(cwd, '.codex', 'config.toml')) : []),
          ...this.toml(join(home, 'config.toml'), own),
        ];
      }
      case 'gemini-cli': {
        const folder = '.gemini';
        const servers = (path: string, owner?: number) =>
          jsonMcpServers((this.json(path, owner) as { mcpServers?: unknown } | null)?.mcpServers);
        return [
          ...(cwd ? servers(join(cwd, folder, 'settings.json')) : []),
          ...servers(join(place.home, folder, 'settings.json'), own),
        ];
      }
      default:
        return [];
    }
  }

  private json(path: string, owner?: number): unknown {
    return this.read(path, owner, (text) => JSON.parse(text) as unknown);
  }

  private toml(path: string, owner?: number): McpServerEntry[] {
    return (this.read(path, owner, codexTomlServers) as McpServerEntry[] | null) ?? [];
  }

  /**
   * Opened (never blocking, a user's symlink followed) and looked at through the descriptor: read and
   * parsed again only when its mtime or size moved.
   */
  private read(path: string, owner: number | undefined, parse: (text: string) => unknown): unknown {
    const now = this.now();
    const key = `${owner ?? ''}\0${path}`; // read for another owner, it may be refused
    const hit = this.files.get(key);
    if (hit && now - hit.checkedAt < this.recheckMs) return hit.parsed;
    const file = openUntrustedFile(path, { maxBytes: CONFIG_MAX_BYTES, owner, followSymlink: true });
    if (isRefusal(file)) {
      if (!isNotFound(file)) this.note?.(path, file);
      this.remember(key, { checkedAt: now, mtimeMs: -1, size: -1, parsed: null });
      return null;
    }
    try {
      if (hit && hit.mtimeMs === file.mtimeMs && hit.size === file.size) {
        hit.checkedAt = now;
        return hit.parsed;
      }
      const bytes = readRange(file, 0, file.size);
      let parsed: unknown = null;
      if (!isRefusal(bytes))
        try {
          parsed = parse(bytes.toString('utf8'));
        } catch {
          parsed = null;
        }
      this.remember(key, { checkedAt: now, mtimeMs: file.mtimeMs, size: file.size, parsed });
      return parsed;
    } finally {
      closeUntrusted(file);
    }
  }

  private remember(key: string, file: CachedFile): void {
    if (this.files.size > 256 && !this.files.has(key)) this.files.clear();
    this.files.set(key, file);
  }
}
