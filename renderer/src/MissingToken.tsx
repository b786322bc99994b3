export function MissingToken() {
  return (
    <main className="missing-token">
      <h1>Corral</h1>
      <p role="alert">
        This page needs its access token. Open the address <code>corral serve</code> printed; it ends in{' '}
        <code>?token=…</code>.
      </p>
    </main>
  );
}
