/**
 * The test file's own temporary directory (test/support/temp-dir-per-file.ts), for the explicit
 * environments the test support gives its children: what a child leaves in it fails the file too.
 */
export function tmpdirEnv(): Record<string, string> {
  const dir = process.env.TMPDIR;
  return dir ? { TMPDIR: dir } : {};
}
