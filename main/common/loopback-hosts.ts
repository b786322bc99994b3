/** The Host headers a server on loopback at this port answers to (serve's guard, the metrics endpoint). */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}
