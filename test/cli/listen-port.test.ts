import { describe, expect, it } from 'vitest';
import { runServe } from '../../main/cli/commands/serve';
import { listenPort } from '../../main/common/listen-port';
import { UsageError } from '../../main/common/usage-error';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { parsePort } from '../../main/core/provenance/resolve-targets';

describe('one port parser', () => {
  it('refuses an empty --port for serve instead of listening on any port', async () => {
    await expect(runServe(['--port', ''], DEFAULT_SETTINGS, () => {})).rejects.toThrow(UsageError);
    await expect(runServe(['--port', ' 80'], DEFAULT_SETTINGS, () => {})).rejects.toThrow(
      /expected 0\.\.65535/,
    );
  });

  it('reads a listening port 0..65535 and a port to look up 1..65535, and nothing else', () => {
    expect(['0', '80', '65535'].map(listenPort)).toEqual([0, 80, 65535]);
    for (const bad of ['', '65536', '-1', '8o', '1e3', '000000080'])
      expect(() => listenPort(bad), bad).toThrow(UsageError);
    expect(['0', '', '65536', '3000'].map(parsePort)).toEqual([null, null, null, 3000]);
  });
});
