/** One stdio MCP server an agent's configuration names: what the agent runs to start it. */
export interface McpServerEntry {
  name: string;
  command: string;
  args: string[];
}

/**
 * The stdio servers of a JSON `mcpServers` object, as Claude Code (`~/.claude.json` top level, or
 * `$CLAUDE_CONFIG_DIR/.claude.json`, and a project's `.mcp.json`) and Gemini CLI (`settings.json`)
 * keep them: `{"<name>": {"command": "npx", "args": ["-y", "…"]}}`. Remote servers (a `url`, no
 * `command`) start no process and are left out; so is anything not of that shape.
 */
export function jsonMcpServers(servers: unknown): McpServerEntry[] {
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) return [];
  const entries: McpServerEntry[] = [];
  for (const [name, raw] of Object.entries(servers as Record<string, unknown>)) {
    if (!raw || typeof raw !== 'object') continue;
    const { command, args } = raw as { command?: unknown; args?: unknown };
    if (typeof command !== 'string' || command === '') continue;
    const list = Array.isArray(args) ? args.filter((a): a is string => typeof a === 'string') : [];
    entries.push({ name, command, args: list });
  }
  return entries;
}

/**
 * Claude Code's `.claude.json`: user-scope servers at its top level and local-scope ones under
 * `projects["<project path>"].mcpServers` (both observed with Claude Code 2.1.197's `claude mcp add`).
 */
export function claudeJsonServers(config: unknown, projectDir: string | null): McpServerEntry[] {
  if (!config || typeof config !== 'object') return [];
  const c = config as {
    mcpServers?: unknown;
    projects?: Record<string, { mcpServers?: unknown } | undefined>;
  };
  const local =
    projectDir && c.projects && typeof c.projects === 'object' ? c.projects[projectDir] : undefined;
  return [...jsonMcpServers(local?.mcpServers), ...jsonMcpServers(c.mcpServers)];
}
