import { useEffect, useState } from 'react';
import type { HookAgentStatus } from '../../../shared/hooks';
import { useCorral, useCorralApi } from '../store/store-context';
import { agentsToOffer } from './hook-offer';

const DISMISSED_KEY = 'corral.hookOfferDismissed';

function dismissedBefore(): boolean {
  try {
    return globalThis.localStorage?.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * On the overview, once: the agents seen here that run without Corral's hooks, and a way to Settings,
 * where the change is shown before anything is written. Nothing is offered when the status cannot be
 * read or there is no corral command for hooks to run; "Not now" is remembered.
 */
export function HookOfferBanner() {
  const api = useCorralApi();
  const setPage = useCorral((s) => s.setPage);
  const [offer, setOffer] = useState<HookAgentStatus[]>([]);
  const [dismissed, setDismissed] = useState(dismissedBefore);

  useEffect(() => {
    if (dismissed) return;
    let live = true;
    api.request('hooks:status', undefined).then(
      (overview) => {
        if (live) setOffer(agentsToOffer(overview));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, dismissed]);

  if (dismissed || offer.length === 0) return null;
  const names = offer.map((a) => a.label).join(' and ');
  const dismiss = () => {
    setDismissed(true);
    try {
      globalThis.localStorage?.setItem(DISMISSED_KEY, '1');
    } catch {
      // Not remembered across restarts; hidden for now all the same.
    }
  };
  return (
    <div className="hook-offer" role="region" aria-label="Hook offer" data-testid="hook-offer">
      <span>
        {names} ran here without Corral&apos;s hooks: with them, the agent is told right after a command what
        it left running.
      </span>{' '}
      <button type="button" onClick={() => setPage('settings')}>
        Set up hooks…
      </button>{' '}
      <button type="button" onClick={dismiss}>
        Not now
      </button>
    </div>
  );
}
