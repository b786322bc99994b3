import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { userName } from '../../main/core/actions/user-names';

const dir = mkdtempSync(join(tmpdir(), 'corral-passwd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('userName', () => {
  const passwd = join(dir, 'passwd');
  writeFileSync(
    passwd,
    'root:x:0:0:root:/root:/bin/bash\n# comment\nnobody:x:65534:65534::/:/usr/sbin/nologin\n\n',
  );

  it.each([
    [0, 'root'],
    [65534, 'nobody'],
    [1234, null],
  ])('uid %i is %s', (uid, name) => {
    expect(userName(uid, passwd)).toBe(name);
  });

  it('is null when the file cannot be read', () => {
    expect(userName(0, join(dir, 'missing'))).toBeNull();
  });
});
