import { readFileSync } from 'node:fs';

/** User name for a uid from /etc/passwd, or null when there is no such line (or no such file). */
export function userName(uid: number, passwdPath = '/etc/passwd'): string | null {
  let text: string;
  try {
    text = readFileSync(passwdPath, 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    const fields = line.split(':');
    if (fields.length >= 3 && Number(fields[2]) === uid && fields[2] !== '') return fields[0] ?? null;
  }
  return null;
}
