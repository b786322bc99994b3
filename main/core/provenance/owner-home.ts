import { isRefusal, readUntrustedFile } from '../files/untrusted-file';

/** Home directories by uid from /etc/passwd, read once per instance. */
export class OwnerHomes {
  private homes: Map<number, string> | null = null;

  constructor(private readonly passwdPath = '/etc/passwd') {}

  homeOf(uid: number): string | null {
    this.homes ??= readHomes(this.passwdPath);
    return this.homes.get(uid) ?? null;
  }
}

function readHomes(path: string): Map<number, string> {
  const homes = new Map<number, string>();
  const file = readUntrustedFile(path, { maxBytes: 64 * 1024 * 1024, followSymlink: true });
  if (isRefusal(file)) return homes;
  const text = file.bytes.toString('utf8');
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f.length < 7 || f[2] === '' || !f[5]!.startsWith('/')) continue;
    const uid = Number(f[2]);
    if (Number.isInteger(uid) && !homes.has(uid)) homes.set(uid, f[5]!);
  }
  return homes;
}
