/** The serve token from the page URL: `?token=` first, then `#token=`. */
export function tokenFromLocation(location: Pick<Location, 'search' | 'hash'>): string | null {
  const fromQuery = new URLSearchParams(location.search).get('token');
  if (fromQuery) return fromQuery;
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  return fromHash || null;
}

export function apiSocketUrl(location: Pick<Location, 'protocol' | 'host'>, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/api?token=${encodeURIComponent(token)}`;
}
