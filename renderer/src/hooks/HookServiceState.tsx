import { useCallback, useEffect, useState } from 'react';
import type { HookEndpointView } from '../../../shared/hook-endpoint';
import {
  hookEndpointWords,
  hooksPostingElsewhere,
  httpHooksWords,
} from '../../../shared/words/hook-endpoint-words';
import { useCorralApi } from '../store/store-context';
import { errorMessage } from '../sync/errors';

/**
 * Who answers the agents' hooks (the running Corral on the endpoint's port, or why none does) and what
 * that means for the agents' tool calls: `corral hooks status`'s "Hook service" line, in the page's words.
 * Asked again when `version` changes (hooks were installed) and with its own button.
 */
export function HookServiceState({ version }: { version: number }) {
  const api = useCorralApi();
  const [view, setView] = useState<HookEndpointView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);

  const look = useCallback(() => {
    setAsking(true);
    api.request('hooks:endpoint', undefined).then(
      (found) => {
        setView(found);
        setError(null);
        setAsking(false);
      },
      (e: unknown) => {
        setError(`The hook service's state could not be read: ${errorMessage(e)}`);
        setAsking(false);
      },
    );
  }, [api]);
  useEffect(() => {
    look();
  }, [look, version]);

  const words = view ? hookEndpointWords(view) : null;
  const elsewhere = view ? hooksPostingElsewhere(view) : null;
  const http = view ? httpHooksWords(view) : null;
  return (
    <section
      className="hook-service"
      aria-label="Hook service"
      data-testid="hook-service"
      data-state={view?.state}
    >
      <div className="hook-head">
        <strong>Hook service</strong>{' '}
        {words ? <span className={`hook-badge tone-${words.tone}`}>{words.badge}</span> : null}
      </div>
      {words ? (
        <>
          <p data-testid="hook-service-summary">{words.summary}</p>
          <p className="muted" data-testid="hook-service-meaning">
            {words.meaning}
          </p>
          {http ? (
            <p className="muted" data-testid="hook-service-http" data-state={view?.http?.state}>
              {http}
            </p>
          ) : null}
          {elsewhere ? (
            <p className="muted" data-testid="hook-service-elsewhere">
              {elsewhere}: run <code>corral hooks install --http</code> again.
            </p>
          ) : null}
        </>
      ) : error ? (
        <p className="muted" data-testid="hook-service-error">
          {error}
        </p>
      ) : (
        <p className="empty">Asking who answers the hooks…</p>
      )}
      <button type="button" disabled={asking} onClick={look}>
        Ask again
      </button>
    </section>
  );
}
