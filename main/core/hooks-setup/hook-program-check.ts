import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { executablesOnPath, isExecutableFile } from './executables-on-path';

/** The shell words of a command line: plain, '…' and "…" quoting, and backslash escapes. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        text += line[j];
      }
      word = (word ?? '') + text;
      i = j;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * What in an installed hook's command line no longer exists, or null when all of it does: its
 * program (an absolute path, or a bare name looked up on PATH) and any absolute path after it (the
 * script `node` runs). The `hook <agent> <event>` tail is not looked at.
 */
export function missingHookProgram(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  const words = shellWords(command);
  const tail = words.lastIndexOf('hook');
  const prefix = tail > 0 ? words.slice(0, tail) : words;
  const [program, ...rest] = prefix;
  if (program === undefined) return null;
  if (!program.includes('/')) {
    if (executablesOnPath(program, env).length === 0) return `${program} (not found on PATH)`;
  } else if (isAbsolute(program) && !isExecutableFile(program)) return program;
  for (const word of rest) {
    if (isAbsolute(word)) {
      try {
        statSync(word);
      } catch {
        return word;
      }
    }
  }
  return null;
}
