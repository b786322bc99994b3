import type { McpServerEntry } from './mcp-config-entries';

/**
 * The stdio MCP servers in a Codex `config.toml`: each `[mcp_servers.<name>]` table's `command` and
 * `args` (as `codex mcp add` writes them, checked with Codex CLI 0.171: quoted names such as
 * `[mcp_servers."my.files"]`, basic and literal strings), dotted keys (`mcp_servers.x.command = …`)
 * included. Only what that needs of TOML is read; any other value is stepped over, and text this reader
 * cannot follow ends the reading with what was found so far rather than an error: the file is Codex's.
 */
export function codexTomlServers(text: string): McpServerEntry[] {
  const found = new Map<string, { command?: string; args?: string[] }>();
  const s = new Scanner(text);
  let table: string[] = [];
  try {
    for (;;) {
      s.skipBlank();
      if (s.done()) break;
      if (s.peek() === '[') {
        const arrayOfTables = s.startsWith('[[');
        s.pos += arrayOfTables ? 2 : 1;
        const path = s.key();
        s.expect(arrayOfTables ? ']]' : ']');
        table = arrayOfTables ? ['\0array'] : path;
        s.endOfLine();
        continue;
      }
      const path = [...table, ...s.key()];
      s.expect('=');
      const value = s.value();
      s.endOfLine();
      if (path.length === 3 && path[0] === 'mcp_servers') {
        const entry = found.get(path[1]!) ?? {};
        if (path[2] === 'command' && typeof value === 'string') entry.command = value;
        if (path[2] === 'args' && Array.isArray(value) && value.every((v) => typeof v === 'string'))
          entry.args = value as string[];
        found.set(path[1]!, entry);
      }
    }
  } catch {
    // Not TOML this reader can follow: keep what was read.
  }
  const entries: McpServerEntry[] = [];
  for (const [name, e] of found)
    if (e.command) entries.push({ name, command: e.command, args: e.args ?? [] });
  return entries;
}

type Value = string | Value[] | null;

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): string {
    return this.text[this.pos] ?? '';
  }
  startsWith(token: string): boolean {
    return this.text.startsWith(token, this.pos);
  }
  expect(token: string): void {
    this.skipSpaces();
    if (!this.startsWith(token)) throw new Error(`expected ${token} at ${this.pos}`);
    this.pos += token.length;
  }
  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }
  /** Spaces, newlines and comments. */
  skipBlank(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.pos++;
      else if (c === '#') while (!this.done() && this.peek() !== '\n') this.pos++;
      else return;
    }
  }
  endOfLine(): void {
    this.skipSpaces();
    if (this.peek() === '#') while (!this.done() && this.peek() !== '\n') this.pos++;
    if (!this.done() && this.peek() !== '\n' && this.peek() !== '\r') throw new Error(`junk at ${this.pos}`);
  }
  /** A dotted key of bare and quoted parts. */
  key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.peek();
      if (c === '"' || c === "'") parts.push(this.string());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.pos, this.pos + 256));
        if (!m) throw new Error(`bad key at ${this.pos}`);
        parts.push(m[0]);
        this.pos += m[0].length;
      }
      this.skipSpaces();
      if (this.peek() !== '.') return parts;
      this.pos++;
    }
  }
  value(): Value {
    this.skipSpaces();
    const c = this.peek();
    if (c === '"' || c === "'") return this.string();
    if (c === '[') {
      this.pos++;
      const items: Value[] = [];
      for (;;) {
        this.skipBlank();
        if (this.peek() === ']') {
          this.pos++;
          return items;
        }
        items.push(this.value());
        this.skipBlank();
        if (this.peek() === ',') this.pos++;
        else if (this.peek() !== ']') throw new Error(`bad array at ${this.pos}`);
      }
    }
    if (c === '{') {
      // An inline table: stepped over, strings inside it included.
      this.pos++;
      for (let depth = 1; depth > 0;) {
        if (this.done()) throw new Error('unterminated inline table');
        const d = this.peek();
        if (d === '"' || d === "'") this.string();
        else {
          if (d === '{') depth++;
          if (d === '}') depth--;
          this.pos++;
        }
      }
      return null;
    }
    // A number, boolean or date: up to the end of the value.
    const m = /^[^\s,\]}#]+/.exec(this.text.slice(this.pos, this.pos + 256));
    if (!m) throw new Error(`bad value at ${this.pos}`);
    this.pos += m[0].length;
    return null;
  }
  /** Basic ("…", with escapes), literal ('…'), and their multi-line forms. */
  string(): string {
    const quote = this.peek();
    const triple = this.startsWith(quote.repeat(3));
    const close = triple ? quote.repeat(3) : quote;
    this.pos += close.length;
    if (triple && this.peek() === '\n') this.pos++;
    let out = '';
    for (;;) {
      if (this.done()) throw new Error('unterminated string');
      if (this.startsWith(close)) {
        this.pos += close.length;
        return out;
      }
      const c = this.peek();
      if (!triple && c === '\n') throw new Error('newline in string');
      if (quote === '"' && c === '\\') {
        const e = this.text[this.pos + 1] ?? '';
        const simple: Record<string, string> = {
          b: '\b',
          t: '\t',
          n: '\n',
          f: '\f',
          r: '\r',
          '"': '"',
          '\\': '\\',
        };
        if (e in simple) {
          out += simple[e];
          this.pos += 2;
        } else if (e === 'u' || e === 'U') {
          const len = e === 'u' ? 4 : 8;
          out += String.fromCodePoint(parseInt(this.text.slice(this.pos + 2, this.pos + 2 + len), 16));
          this.pos += 2 + len;
        } else throw new Error(`bad escape at ${this.pos}`);
        continue;
      }
      out += c;
      this.pos++;
    }
  }
}
