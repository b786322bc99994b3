import { useState } from 'react';
import { keptLabel } from '../../../shared/words/keep-duration';
import type { GroupView } from '../../../shared/model';
import { visibleText } from '../../../shared/words/visible-text';
import { useCorral, useCorralApi } from '../store/store-context';

/**
 * "Keep running" beside Stop: the user wants this group (a dev server they asked for). A kept group
 * keeps its flags but raises no notification and matches no policy stop; it is shown as
 * "kept, 2h59m left" with an Unkeep. The core pushes the kept state in its next snapshot.
 */
export function KeepButton({ group, compact }: { group: GroupView; compact: boolean }) {
  const api = useCorralApi();
  const now = useCorral((s) => s.now);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The agent's own group is never stopped, so there is nothing to keep it from.
  if (group.containsAgent) return null;
  const ask = (request: Promise<unknown>): void => {
    setBusy(true);
    setError(null);
    request.then(
      () => setBusy(false),
      (err: unknown) => {
        setBusy(false);
        setError(err instanceof Error ? err.message : String(err));
      },
    );
  };
  const problem = error ? (
    <span className="error keep-error" role="alert">
      {visibleText(error)}
    </span>
  ) : null;
  if (group.kept) {
    const note = group.kept.note ? ` — ${visibleText(group.kept.note)}` : '';
    return (
      <>
        <span className="kept-badge" data-testid="kept-badge" title={`Kept on purpose${note}`}>
          {keptLabel(group.kept.until, now)}
        </span>
        <button
          type="button"
          disabled={busy}
          aria-label={`Stop keeping group ${group.pgid}`}
          onClick={(event) => {
            event.stopPropagation();
            ask(api.request('group:unkeep', { groupId: group.id }));
          }}
        >
          Unkeep
        </button>
        {problem}
      </>
    );
  }
  return (
    <>
      <button
        type="button"
        disabled={busy}
        aria-label={`Keep group ${group.pgid} running`}
        title="Keep it running for 8 h: no notification, no policy stop, not counted as a leak"
        onClick={(event) => {
          event.stopPropagation();
          ask(api.request('group:keep', { groupId: group.id }));
        }}
      >
        {compact ? 'Keep' : 'Keep running'}
      </button>
      {problem}
    </>
  );
}
