import { visibleText } from '../../../shared/visible-text';
import { useEffect, useState } from 'react';
import type { PolicyMode, PolicyRule, Settings } from '../../../shared/model';
import { useCorral, useCorralApi } from '../store/store-context';
import { errorMessage } from '../sync/errors';
import { JOURNAL_LIMIT, startOfDay, stoppedByPolicies, wouldHaveStopped } from './policy-journal';

interface PoliciesSectionProps {
  settings: Settings;
  /** The settings Corral accepted after a change made here. */
  onSaved: (settings: Settings) => void;
}

const describeMatch = (rule: PolicyRule): string =>
  Object.entries(rule.match)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ');

/** Policies in Settings: the mode, each rule with an on/off switch, a drafted rule, and the journal. */
export function PoliciesSection({ settings, onSaved }: PoliciesSectionProps) {
  const api = useCorralApi();
  const journal = useCorral((s) => s.policyJournal);
  const draft = useCorral((s) => s.ruleDraft);
  const setRuleDraft = useCorral((s) => s.setRuleDraft);
  const loadPolicyJournal = useCorral((s) => s.loadPolicyJournal);
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  // The counts and the journal come from what the core stored, so they survive restarts of either side.
  useEffect(() => {
    let live = true;
    api.request('policies:journal', { limit: JOURNAL_LIMIT }).then(
      (stored) => {
        if (live) loadPolicyJournal(stored);
      },
      (error: unknown) => {
        if (live) setErrors([`The policy journal could not be read: ${errorMessage(error)}`]);
      },
    );
    return () => {
      live = false;
    };
  }, [api, loadPolicyJournal]);

  const apply = (patch: Partial<Settings>, after?: () => void) => {
    setSaving(true);
    api.request('settings:set', patch).then(
      (response) => {
        setSaving(false);
        if (response.ok) {
          setErrors([]);
          onSaved(response.settings);
          after?.();
        } else setErrors(response.errors);
      },
      (error: unknown) => {
        setSaving(false);
        setErrors([errorMessage(error)]);
      },
    );
  };

  const today = startOfDay(Date.now());
  const wouldStop = wouldHaveStopped(journal, today);
  const stopped = stoppedByPolicies(journal, today);

  return (
    <fieldset className="policies" aria-labelledby="policies-title">
      <legend id="policies-title">Policies</legend>
      <label className="field" htmlFor="policy-mode">
        Mode
        <select
          id="policy-mode"
          value={settings.policyMode}
          disabled={saving}
          onChange={(event) => apply({ policyMode: event.target.value as PolicyMode })}
        >
          <option value="observe">Observe: record what rules would do</option>
          <option value="enforce">Enforce: act</option>
        </select>
      </label>
      <p data-testid="policy-summary">
        {settings.policyMode === 'observe'
          ? `Would have stopped ${wouldStop} group${wouldStop === 1 ? '' : 's'} today.`
          : `Stopped ${stopped} group${stopped === 1 ? '' : 's'} today.`}
      </p>
      {settings.policies.length === 0 ? (
        <p className="empty">No policies. Use “Make this a rule…” on a flagged group, or the config file.</p>
      ) : (
        <ul aria-label="Policy rules">
          {settings.policies.map((rule, i) => (
            <li key={rule.name} data-testid="policy-rule">
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={rule.enabled !== false}
                  disabled={saving}
                  aria-label={`Enable ${rule.name}`}
                  onChange={(event) =>
                    apply({
                      policies: settings.policies.map((r, j) =>
                        j === i ? { ...r, enabled: event.target.checked } : r,
                      ),
                    })
                  }
                />
                <strong>{rule.name}</strong> — {rule.action} when {describeMatch(rule)}
              </label>
            </li>
          ))}
        </ul>
      )}
      {draft ? (
        <div className="rule-draft" data-testid="rule-draft">
          <p>
            New rule <strong>{draft.name}</strong>: {draft.action} when {describeMatch(draft)}
          </p>
          <label className="field" htmlFor="draft-action">
            Action
            <select
              id="draft-action"
              value={draft.action}
              onChange={(event) =>
                setRuleDraft({ ...draft, action: event.target.value as PolicyRule['action'] })
              }
            >
              <option value="notify">notify</option>
              <option value="stop">stop</option>
            </select>
          </label>
          <button
            type="button"
            className="primary"
            disabled={saving}
            onClick={() => apply({ policies: [...settings.policies, draft] }, () => setRuleDraft(null))}
          >
            Add rule
          </button>
          <button type="button" onClick={() => setRuleDraft(null)}>
            Discard
          </button>
        </div>
      ) : null}
      {errors.length > 0 ? (
        <div role="alert" className="error" data-testid="policy-errors">
          <ul>
            {errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <h3>Journal</h3>
      {journal.length === 0 ? (
        <p className="empty">No policy has matched yet.</p>
      ) : (
        <ol aria-label="Policy journal">
          {journal.map((e, i) => (
            <li key={`${e.at}-${i}`} data-testid="journal-entry">
              {new Date(e.at).toLocaleTimeString()} {String(e.detail?.policy)}:{' '}
              {e.type === 'stopped-by-policy'
                ? `stopped group ${e.pgid}`
                : `${e.detail?.executed ? 'acted on' : 'would ' + String(e.detail?.action)} group ${e.pgid}`}
              {e.command ? ` (${visibleText(e.command)})` : ''}
              {e.detail?.reason ? ` (${String(e.detail.reason)})` : ''}
            </li>
          ))}
        </ol>
      )}
    </fieldset>
  );
}
