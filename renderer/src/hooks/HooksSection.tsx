import { useCallback, useEffect, useState } from 'react';
import type { HookAgentName, HooksChangeView, HooksOverview } from '../../../shared/hooks';
import { useCorralApi } from '../store/store-context';
import { errorMessage } from '../sync/errors';
import { agentsToOffer, describeHookStatus } from './hook-offer';

type Step =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'preview'; change: HooksChangeView }
  | { kind: 'done'; change: HooksChangeView };

/**
 * Agent hooks in Settings: which agents have Corral's hooks and in which file, and for the agents
 * Corral has seen, an offer to install them. The offer first shows the change (a dry run); only the
 * Install button writes, and the settings file is backed up first.
 */
export function HooksSection() {
  const api = useCorralApi();
  const [overview, setOverview] = useState<HooksOverview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  const refresh = useCallback(
    () =>
      api.request('hooks:status', undefined).then(
        (found) => setOverview(found),
        (e: unknown) => setError(`Hook status could not be read: ${errorMessage(e)}`),
      ),
    [api],
  );
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const install = (agent: HookAgentName, dryRun: boolean) => {
    setStep({ kind: 'busy' });
    setError(null);
    api.request('hooks:install', { agent, dryRun }).then(
      (change) => {
        if (change.error) {
          setError(change.error);
          setStep({ kind: 'idle' });
          return;
        }
        setStep({ kind: dryRun ? 'preview' : 'done', change });
        if (!dryRun) void refresh();
      },
      (e: unknown) => {
        setError(errorMessage(e));
        setStep({ kind: 'idle' });
      },
    );
  };

  const offer = overview ? agentsToOffer(overview) : [];
  const labelOf = (agent: HookAgentName) => overview?.agents.find((a) => a.agent === agent)?.label ?? agent;

  return (
    <fieldset className="hooks" aria-labelledby="hooks-title">
      <legend id="hooks-title">Agent hooks</legend>
      <p>
        With Corral&apos;s hooks, an agent is told right after a shell command what that command left running,
        and its ended sessions are marked.
      </p>
      {overview === null ? (
        error ? null : (
          <p className="empty">Reading hook status…</p>
        )
      ) : (
        <ul aria-label="Hook status">
          {overview.agents.map((a) => (
            <li key={a.agent} data-testid="hook-agent">
              <strong>{a.label}</strong>
              {a.seen ? ' (seen on this machine)' : ''}: {describeHookStatus(a)}
            </li>
          ))}
        </ul>
      )}
      {overview?.commandProblem ? (
        <p className="empty" data-testid="hook-command-problem">
          Hooks cannot be installed from here: {overview.commandProblem}.
        </p>
      ) : null}
      {step.kind === 'preview' ? (
        <div role="region" aria-label="Hook changes" className="hook-preview">
          {step.change.changed ? (
            <>
              <p>
                Installing {labelOf(step.change.agent)}&apos;s hooks changes {step.change.path} (a backup is
                written beside it first):
              </p>
              <pre data-testid="hook-diff">{step.change.diff}</pre>
              <button type="button" onClick={() => install(step.change.agent, false)}>
                Install
              </button>{' '}
              <button type="button" onClick={() => setStep({ kind: 'idle' })}>
                Cancel
              </button>
            </>
          ) : (
            <p>{step.change.path} already has Corral&apos;s hooks; nothing to change.</p>
          )}
        </div>
      ) : (
        offer.map((a) => (
          <button
            key={a.agent}
            type="button"
            disabled={step.kind === 'busy'}
            onClick={() => install(a.agent, true)}
          >
            Install hooks for {a.label}…
          </button>
        ))
      )}
      {step.kind === 'done' ? (
        <p role="status" data-testid="hook-installed">
          {step.change.changed
            ? `Installed ${labelOf(step.change.agent)}'s hooks in ${step.change.path}${step.change.backup ? `; the previous file is kept as ${step.change.backup}` : ''}.`
            : `${step.change.path} already had Corral's hooks.`}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="error" data-testid="hook-error">
          {error}
        </p>
      ) : null}
      <p className="empty">
        For other agents, or to remove the hooks: <code>corral hooks install|uninstall --agent …</code>
      </p>
    </fieldset>
  );
}
