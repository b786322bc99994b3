/**
 * The command an agent's tool-call wrapper runs, from the wrapper's command line. Claude Code runs
 * each Bash call as `/bin/bash -c source <snapshot> … && eval '<command>' … && pwd -P >| <cwd file>`
 * (shared/AGENTS.md), quoting the command for the shell: `'…'` segments, with `'\''` for a quote.
 * Returns null when the command line holds no `eval '…'`.
 */
export function commandInsideEval(commandLine: string): string | null {
  const at = commandLine.indexOf("eval '");
  if (at < 0) return null;
  let i = at + 5;
  let out = '';
  while (i < commandLine.length) {
    const c = commandLine[i]!;
    if (c === "'") {
      const end = commandLine.indexOf("'", i + 1);
      if (end < 0) return null; // an unterminated quote: not a wrapper we understand
      out += commandLine.slice(i + 1, end);
      i = end + 1;
    } else if (c === '\\' && i + 1 < commandLine.length) {
      out += commandLine[i + 1];
      i += 2;
    } else if (/[\s;&|<>)]/.test(c))
      break; // the end of the word
    else return null; // double quotes or a bare word part: not a wrapper we understand
  }
  return out;
}

const GEMINI_OPEN = `trap 'jobs -p > "$_bgpids_file"' EXIT\n`;
const GEMINI_CLOSE = '\n)\n__code=$?';

/**
 * The command inside Gemini CLI's tool-call script (0.61, observed): `shopt -u …; _bgpids_file=<tmp>/bgpids.tmp`,
 * then `(`, `  trap 'jobs -p > "$_bgpids_file"' EXIT`, the command, `)`, `__code=$?`, `exit $__code`,
 * one per line. Null when the script is not of that shape.
 */
export function commandInsideGeminiScript(script: string): string | null {
  const open = script.indexOf(GEMINI_OPEN);
  const close = script.lastIndexOf(GEMINI_CLOSE);
  if (open < 0 || close < open + GEMINI_OPEN.length) return null;
  return script.slice(open + GEMINI_OPEN.length, close);
}

/**
 * Whether a leftover process could have come from `command`: its own command line appears in the
 * command the agent ran (`python3 -m http.server 8000 &` left `python3 -m http.server 8000`).
 * Whitespace is compared loosely; a command line of a single word only matches as a whole word.
 */
export function commandMentions(command: string, processCommand: string): boolean {
  const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
  const needle = norm(processCommand);
  if (needle.length < 2) return false;
  const hay = ` ${norm(command)} `;
  const at = hay.indexOf(needle);
  if (at < 0) return false;
  const before = hay[at - 1]!;
  const after = hay[at + needle.length]!;
  return /[\s;&|(`'"/]/.test(before) && /[\s;&|)`'"]/.test(after);
}
