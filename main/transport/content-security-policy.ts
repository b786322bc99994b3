/**
 * The renderer's CSP, for both the Electron window and `corral serve`: only our own bundled files,
 * no inline script, no eval, no remote anything. `connectSources` adds what the transport needs
 * (the serve WebSocket, the dev server's HMR socket).
 */
export function contentSecurityPolicy({ connectSources = [] }: { connectSources?: string[] } = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectSources].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
