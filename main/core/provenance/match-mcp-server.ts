import type { McpServerEntry } from './mcp-config-entries';

/** Interpreters a configured command may show up under (a `#!/usr/bin/env node` script runs as `node <script>`). */
const INTERPRETERS = /^(node|nodejs|bun|deno|python[0-9.]*|ruby|perl)$/;

const base = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const positional = (args: readonly string[]): string[] => args.filter((a) => !a.startsWith('-'));

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The configured MCP server a process runs, by its command line: the entry's command (by file name, as
 * an agent resolves it through PATH) followed by exactly its args; or the command as a script under its
 * interpreter (`node /usr/bin/npx -y …`); or, for `npx`, the title npm gives itself (`npm exec …`, which
 * keeps the package but not npx's flags). The first matching entry wins, so callers list them in the
 * agent's own precedence. Null when none matches.
 */
export function matchConfiguredServer(
  argv: readonly string[],
  entries: readonly McpServerEntry[],
): string | null {
  if (argv.length === 0) return null;
  for (const e of entries) {
    const command = base(e.command);
    if (base(argv[0]!) === command && sameList(argv.slice(1), e.args)) return e.name;
    if (argv.length >= 2 && INTERPRETERS.test(base(argv[0]!)) && base(argv[1]!) === command) {
      if (sameList(argv.slice(2), e.args)) return e.name;
    }
    if (command === 'npx' && argv[0] === 'npm' && argv[1] === 'exec') {
      if (sameList(positional(argv.slice(2)), positional(e.args))) return e.name;
    }
  }
  return null;
}
