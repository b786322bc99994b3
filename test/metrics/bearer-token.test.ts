import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bearerMatches, resolveToken } from '../../main/metrics/bearer-token';
import { tempDirForTest } from '../support/spawned-groups';

const TOKEN = 'a3f1c9d2e4b5a6c7d8e9f0a1';

function tokenFile(content: string, mode: number): string {
  const path = join(tempDirForTest('corral-token-'), 'token');
  writeFileSync(path, content);
  chmodSync(path, mode);
  return path;
}

describe('the metrics bearer token', () => {
  it('comes from --token, else --token-file, else $CORRAL_METRICS_TOKEN, else none', () => {
    expect(resolveToken({ token: TOKEN }, { CORRAL_METRICS_TOKEN: 'x'.repeat(20) })).toBe(TOKEN);
    expect(resolveToken({ tokenFile: tokenFile(`${TOKEN}\n`, 0o600) }, {})).toBe(TOKEN);
    expect(resolveToken({}, { CORRAL_METRICS_TOKEN: TOKEN })).toBe(TOKEN);
    expect(resolveToken({}, {})).toBeNull();
    expect(resolveToken({}, { CORRAL_METRICS_TOKEN: '' })).toBeNull();
  });

  it.each([0o640, 0o604, 0o644, 0o660, 0o606])('refuses a token file with mode %s', (mode) => {
    const path = tokenFile(TOKEN, mode);
    expect(() => resolveToken({ tokenFile: path }, {})).toThrow(
      /readable or writable by group or others.*chmod 600/,
    );
  });

  it('refuses a missing file, a directory, a short token, both sources at once', () => {
    expect(() => resolveToken({ tokenFile: '/nonexistent/token' }, {})).toThrow(/cannot read it \(ENOENT\)/);
    expect(() => resolveToken({ tokenFile: tempDirForTest('corral-dir-') }, {})).toThrow(
      /not a regular file/,
    );
    expect(() => resolveToken({ token: 'short' }, {})).toThrow(/at least 16 characters/);
    expect(() => resolveToken({}, { CORRAL_METRICS_TOKEN: 'short' })).toThrow(/CORRAL_METRICS_TOKEN/);
    expect(() => resolveToken({ token: TOKEN, tokenFile: tokenFile(TOKEN, 0o600) }, {})).toThrow(/not both/);
  });

  it.each([
    [`Bearer ${TOKEN}`, true],
    [`bearer ${TOKEN}`, true],
    [`Bearer ${TOKEN}x`, false],
    [`Bearer ${TOKEN.slice(1)}`, false],
    [`Basic ${TOKEN}`, false],
    [TOKEN, false],
    [undefined, false],
  ])('Authorization %j matches: %s', (header, ok) => {
    expect(bearerMatches(header, TOKEN)).toBe(ok);
  });
});
