/**
 * One word for a POSIX shell. On Linux and macOS every agent Corral installs hooks for runs a hook's
 * `command` string through a POSIX shell (Claude Code: bash by default, its hooks' `shell` field;
 * Codex: `sh -c`; Gemini CLI and its fork Qwen Code: `bash -c`, hookRunner.ts), so a path with a
 * space, a quote or a `$` must be single-quoted or the shell splits it (exit 127 on every tool call).
 */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
