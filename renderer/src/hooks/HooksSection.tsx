import { useCallback, useEffect, useState } from 'react';
import type { HookAgentName, HookAgentStatus, HooksChangeView, HooksOverview } from '../../../shared/hooks';
import { preloadApi } from '../transport/preload-api';
import { useCorralApi } from '../store/store-context';
import { errorMessage } from '../sync/errors';
import { HookServiceState } from './HookServiceState';
import { agentPresence, describeHookStatus, hookBadge, hooksCliCommand, needsHooks } from './hook-offer';

type Step =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'preview'; change: HooksChangeView }
  | { kind: 'done'; change: HooksChangeView };

/**
 * Agent hooks in Settings: for each agent, whether Corral's hooks are set up and in which file, and
 * for those seen or installed here without them, an Install button; the terminal command that does the
 * same with the CLI as this machine runs it, or how to get the CLI when it has none. The offer first shows the change (a dry run); only the
 * Install button writes, and the settings file is backed up first.
 */
export function HooksSection() {
  const api = useCorralApi();
  const [overview, setOverview] = useState<HooksOverview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  // Bumped when hooks change: which hooks ask the running Corral changes with them.
  const [hooksVersion, setHooksVersion] = useState(0);
  // Inside the desktop app the CLI comes from its menu; in a browser the page is `corral serve`'s.
  const inApp = preloadApi() !== null;

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
        if (!dryRun) {
          void refresh();
          setHooksVersion((v) => v + 1);
        }
      },
      (e: unknown) => {
        setError(errorMessage(e));
        setStep({ kind: 'idle' });
      },
    );
  };

  const labelOf = (agent: HookAgentName) => overview?.agents.find((a) => a.agent === agent)?.label ?? agent;
  const canInstall = overview !== null && overview.command !== null;
  const cli = overview?.cliCommand ?? overview?.command ?? null;
  // Agents shown with a next step: those seen or installed here, and any with hooks to fix.
  const relevant = (a: HookAgentStatus) => a.seen || a.installed === true || a.state !== 'absent';

  return (
    <fieldset className="hooks" aria-labelledby="hooks-title">
      <legend id="hooks-title">Agent hooks</legend>
      <p className="help">
        With Corral&apos;s hooks, an agent is told right after a shell command what that command left running,
        and its ended sessions are marked.
      </p>
      {overview === null ? (
        error ? null : (
          <p className="empty">Reading hook status…</p>
        )
      ) : (
        <ul aria-label="Hook status" className="hook-list">
          {overview.agents.map((a) => {
            const badge = hookBadge(a);
            return (
              <li key={a.agent} data-testid="hook-agent" data-state={a.state}>
                <div className="hook-head">
                  <strong>{a.label}</strong>{' '}
                  <span className={`hook-badge tone-${relevant(a) ? badge.tone : 'none'}`}>{badge.text}</span>
                  <span className="muted"> · {agentPresence(a)}</span>
                </div>
                <div className="hook-detail muted" title={describeHookStatus(a)}>
                  {a.state === 'invalid' ? (a.error ?? describeHookStatus(a)) : <code>{a.path}</code>}
                  {a.missingCommand ? ` — its hook runs ${a.missingCommand}, which is gone` : ''}
                </div>
                {needsHooks(a) && relevant(a) && canInstall && step.kind !== 'preview' ? (
                  <button
                    type="button"
                    disabled={step.kind === 'busy'}
                    onClick={() => install(a.agent, true)}
                  >
                    Install hooks for {a.label}…
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <HookServiceState version={hooksVersion} />
      {overview && !canInstall ? (
        <div className="hook-next" data-testid="hook-command-problem">
          <p>
            Corral&apos;s hooks run the <code>corral</code> command, which this machine does not have on its
            PATH yet.
          </p>
          {inApp ? (
            <p>
              Install it from Corral&apos;s menu-bar menu (<strong>Install command-line tool…</strong>) or
              with <code>npm install -g corral</code>, then look again.
            </p>
          ) : overview.commandProblem ? (
            <p>Hooks cannot be installed from here: {overview.commandProblem}.</p>
          ) : null}
          <button type="button" onClick={() => void refresh()}>
            Look again
          </button>
        </div>
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
      ) : null}
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
      {overview ? (
        <div className="hook-cli">
          <p className="help">In a terminal, the same for any agent (and to remove them):</p>
          <pre data-testid="hook-cli-command">
            {hooksCliCommand(cli, 'install', overview.agents.find(needsHooks)?.agent ?? 'claude-code')}
            {'\n'}
            {hooksCliCommand(cli, 'uninstall', overview.agents.find(needsHooks)?.agent ?? 'claude-code')}
          </pre>
          {cli === null ? <p className="help">(once the command-line tool is installed)</p> : null}
        </div>
      ) : null}
    </fieldset>
  );
}
