import { describe, expect, it } from 'vitest';
import { distinctPorts } from '../../main/core/sampling/linux/listening-ports';
import type { ListeningPort } from '../../shared/model';
import { compareAddresses, compareCodeUnits } from '../../shared/text-order';
import { withThousands } from '../../shared/words/thousands';

// The locale-aware calls these replace, as the reference (tests may load ICU; watch and serve should not).
const localeOrder = (a: ListeningPort, b: ListeningPort): number =>
  a.port - b.port || a.protocol.localeCompare(b.protocol) || a.address.localeCompare(b.address);

const ADDRESSES = [
  '0.0.0.0',
  '1.2.3.4',
  '10.0.0.1',
  '127.0.0.1',
  '127.0.0.53',
  '192.168.1.20',
  '::',
  '::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '1::',
  '2001:db8::1',
  '2001:db8:0:1::1',
  'fe80::1',
  'fe80::a00:27ff:fe4e:66a1',
  'fd00::1',
];

describe('withThousands', () => {
  it("writes what toLocaleString('en-US') writes for a whole count", () => {
    const values = [0, -0, 1, 7, 999, 1000, 1646, 9999, 14_550, 99_999, 100_000, 123_456_789, 2 ** 53 + 2];
    for (const v of [...values, ...values.map((x) => -x), 999.5, 1234.4, -1234.6, NaN, Infinity]) {
      expect(withThousands(v), String(v)).toBe(Math.round(v).toLocaleString('en-US'));
    }
    expect(withThousands(14_550)).toBe('14,550');
    expect(withThousands(1_319)).toBe('1,319');
  });
});

describe('address order without ICU', () => {
  it('sorts IPv4, IPv6 and IPv4-mapped addresses exactly as localeCompare did', () => {
    const mixed = [...ADDRESSES].reverse();
    expect([...mixed].sort(compareAddresses)).toEqual([...mixed].sort((a, b) => a.localeCompare(b)));
    // Loopback before a global address; shorter IPv4 octets first.
    expect([...mixed].sort(compareAddresses).slice(0, 3)).toEqual(['::', '::1', '::ffff:10.0.0.1']);
    expect(compareAddresses('1.2.3.4', '10.0.0.1')).toBeLessThan(0);
    expect(compareAddresses('::1', '2001:db8::1')).toBeLessThan(0);
    expect(compareAddresses('::1', '::1')).toBe(0);
  });

  it('lists ports by port, then protocol, then address, as before', () => {
    const ports: ListeningPort[] = [];
    for (const port of [8080, 53, 3000])
      for (const protocol of ['udp6', 'tcp6', 'udp', 'tcp'] as const)
        for (const address of ADDRESSES)
          if (protocol.endsWith('6') === address.includes(':')) ports.push({ protocol, address, port });
    const listed = distinctPorts([...ports].reverse());
    expect(listed).toEqual([...ports].sort(localeOrder));
    expect(listed.slice(0, 2)).toEqual([
      { protocol: 'tcp', address: '0.0.0.0', port: 53 },
      { protocol: 'tcp', address: '1.2.3.4', port: 53 },
    ]);
  });

  it('orders ISO days and agent ids in code unit order', () => {
    const days = ['2026-12-02', '2026-01-31', '2025-12-31', '2026-12-01'];
    expect([...days].sort(compareCodeUnits)).toEqual([
      '2025-12-31',
      '2026-01-31',
      '2026-12-01',
      '2026-12-02',
    ]);
    const agents = ['qwen-code', '', 'claude-code', 'codex', 'gemini-cli', 'claude'];
    expect([...agents].sort(compareCodeUnits)).toEqual([...agents].sort((a, b) => a.localeCompare(b)));
  });
});
