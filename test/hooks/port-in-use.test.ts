import { describe, expect, it } from 'vitest';
import { portsInUse, saysPortInUse } from '../../main/hooks/port-in-use';

// Each text is what the program prints, taken from a run here or from the program's own source (the
// format string named beside it), so a change of wording in a new release shows up as a failing row.
const CASES: { name: string; output: string; command?: string; ports: number[] }[] = [
  {
    // Node 24.22.3 here (recorded from Claude Code's PostToolUseFailure `error`, see claude-code-e2e).
    name: 'Node net/http listen, IPv4 host',
    output: [
      'Exit code 1',
      'node:events:505',
      "    throw er; // Unhandled 'error' event",
      '    ^',
      '',
      'Error: listen EADDRINUSE: address already in use 127.0.0.1:35081',
      '    at Server.setupListenHandle [as _listen2] (node:net:2390:16)',
      "Emitted 'error' event on Server instance at:",
      '    at emitErrorNT (node:net:2478:8) {',
      "  code: 'EADDRINUSE',",
      '  errno: -98,',
      "  syscall: 'listen',",
      "  address: '127.0.0.1',",
      '  port: 35081',
      '}',
      '',
      'Node.js v24.22.3',
    ].join('\n'),
    ports: [35081],
  },
  {
    name: 'Node, any IPv6 address',
    output: 'Error: listen EADDRINUSE: address already in use :::3000',
    ports: [3000],
  },
  {
    name: 'Node, IPv6 loopback',
    output: 'Error: listen EADDRINUSE: address already in use ::1:4000',
    ports: [4000],
  },
  {
    name: 'Node, a Unix socket (no port)',
    output: 'Error: listen EADDRINUSE: address already in use /tmp/app.sock',
    ports: [],
  },
  {
    // vite/src/node/http.ts: `Port ${port} is in use, trying another one...` (a timestamp and tag before it).
    name: 'Vite moving on',
    output:
      '10:05:33 AM [vite] Port 5173 is in use, trying another one...\n\n  VITE v5.4.0  ready in 230 ms\n  ➜  Local:   http://localhost:5174/',
    ports: [5173],
  },
  // vite/src/node/http.ts with strictPort: `Port ${port} is already in use`.
  {
    name: 'Vite strictPort',
    output: 'error when starting dev server:\nError: Port 5173 is already in use',
    ports: [5173],
  },
  // next.js packages/next/src/cli/next-dev.ts: `Port ${port} is in use, trying ${port + 1} instead.`
  {
    name: 'Next.js moving on',
    output:
      ' ⚠ Port 3000 is in use, trying 3001 instead.\n   ▲ Next.js 14.2.3\n   - Local: http://localhost:3001',
    ports: [3000],
  },
  {
    // next.js 15 next-dev.ts: `Port ${port} is in use by process ${pid}, using available port ${newPort} instead.`
    name: 'Next.js 15 with the holder pid',
    output: ' ⚠ Port 3000 is in use by process 48211, using available port 3001 instead.',
    ports: [3000],
  },
  // Python 3 `python3 -m http.server 8000` (socketserver bind): no port in the message.
  {
    name: 'Python http.server (port from the command)',
    output:
      'Traceback (most recent call last):\n  File "/usr/lib/python3.12/socketserver.py", line 473, in server_bind\n    self.socket.bind(self.server_address)\nOSError: [Errno 98] Address already in use',
    command: 'python3 -m http.server 8000',
    ports: [8000],
  },
  {
    // uvicorn/server.py: "[Errno 98] error while attempting to bind on address ('127.0.0.1', 8000): address already in use"
    name: 'uvicorn',
    output:
      "INFO:     Started server process [4242]\nERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', 8000): address already in use\nINFO:     Waiting for application shutdown.",
    ports: [8000],
  },
  {
    // puma/lib/puma/binder.rb via Ruby's TCPServer: Errno::EADDRINUSE message.
    name: 'Rails (Puma)',
    output:
      'Exiting\n/usr/lib/ruby/3.2.0/socket.rb:201:in `bind\': Address already in use - bind(2) for "127.0.0.1" port 3000 (Errno::EADDRINUSE)',
    ports: [3000],
  },
  // Go net.Listen: &OpError{Op: "listen", Net: "tcp", Addr: ":8080", Err: bind: address already in use}.
  {
    name: 'Go, any address',
    output: '2026/12/02 10:01:02 listen tcp :8080: bind: address already in use\nexit status 1',
    ports: [8080],
  },
  { name: 'Go, IPv4 host', output: 'listen tcp 127.0.0.1:8080: bind: address already in use', ports: [8080] },
  {
    name: 'Go, bracketed IPv6',
    output: 'listen tcp [::1]:9090: bind: address already in use',
    ports: [9090],
  },
  {
    // werkzeug/serving.py: "Port {port} is in use by another program. Either identify and stop that program, or start the server with a different port."
    name: 'Flask (werkzeug)',
    output:
      'Address already in use\nPort 5000 is in use by another program. Either identify and stop that program, or start the server with a different port.',
    ports: [5000],
  },
  // django/core/management/commands/runserver.py: errno.EADDRINUSE: "That port is already in use."
  {
    name: 'Django (port from the command)',
    output: 'Error: That port is already in use.',
    command: 'python manage.py runserver 0.0.0.0:8001',
    ports: [8001],
  },
  {
    name: 'Docker',
    output:
      'docker: Error response from daemon: driver failed programming external connectivity on endpoint web: Bind for 0.0.0.0:8080 failed: port is already allocated.',
    ports: [8080],
  },
  {
    name: 'Spring Boot',
    output:
      '***************************\nAPPLICATION FAILED TO START\n***************************\n\nDescription:\n\nWeb server failed to start. Port 8080 was already in use.',
    ports: [8080],
  },
  {
    name: 'PHP built-in server',
    output: '[Wed Dec  2 10:00:00 2026] Failed to listen on localhost:8000 (reason: Address already in use)',
    ports: [8000],
  },
  { name: 'Bun', output: 'error: Failed to start server. Is port 3000 in use?', ports: [3000] },
  {
    name: 'two servers',
    output:
      'Error: listen EADDRINUSE: address already in use :::3000\nlisten tcp :8080: bind: address already in use',
    ports: [3000, 8080],
  },
  // Texts that must not be read as a port in use.
  {
    name: 'a server that started',
    output: '  ➜  Local:   http://localhost:5173/\n  ready in 12:30:45',
    ports: [],
  },
  { name: 'a file in use', output: 'rm: cannot remove x: Device or resource busy', ports: [] },
  {
    name: 'in use, no port anywhere',
    output: 'OSError: [Errno 98] Address already in use',
    command: 'python3 app.py',
    ports: [],
  },
  { name: 'nothing at all', output: '', ports: [] },
];

describe('portsInUse: real servers’ "port in use" texts', () => {
  for (const c of CASES) {
    it(c.name, () => {
      expect(portsInUse(c.output, c.command)).toEqual(c.ports);
    });
  }

  it('says a port is taken exactly where a port was found or the text says address in use', () => {
    expect(saysPortInUse('OSError: [Errno 98] Address already in use')).toBe(true);
    expect(saysPortInUse('listening on :3000')).toBe(false);
  });

  it('reads a port named at the end of a very long output', () => {
    const output = `${'x'.repeat(500_000)}\nError: listen EADDRINUSE: address already in use :::3123`;
    expect(portsInUse(output)).toEqual([3123]);
  });
});
