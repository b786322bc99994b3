import { visibleText } from '../../../shared/words/visible-text';
import { useEffect, useState } from 'react';
import { HOOK_AGENT_NAMES } from '../../../shared/hooks';
import type { PolicyMode, Settings } from '../../../shared/model';
import { useCorral, useCorralApi } from '../store/store-context';
import { errorMessage } from '../sync/errors';
import { PoliciesJson } from './PoliciesJson';
import { PolicyRuleEditor } from './PolicyRuleEditor';
import {
  EMPTY_RULE,
  checkRule,
  describeMatch,
  ruleToForm,
  type RuleErrors,
  type RuleForm,
} from './policy-form';
import { JOURNAL_LIMIT, startOfDay, stoppedByPolicies, wouldHaveStopped } from './policy-journal';

interface PoliciesSectionProps {
  settings: Settings;
  /** The settings Corral accepted after a change made here. */
  onSaved: (settings: Settings) => void;
}

interface Editing {
  /** The rule's place in the list; the list's length for a new rule. */
  index: number;
  form: RuleForm;
  errors: RuleErrors;
}

/**
 * Policies in Settings: the mode, each rule with an on/off switch, Edit and Delete, a form for a new
 * or drafted rule, the rules as JSON behind "Advanced", and the journal.
 */
export function PoliciesSection({ settings, onSaved }: PoliciesSectionProps) {
  const api = useCorralApi();
  const journal = useCorral((s) => s.policyJournal);
  const draft = useCorral((s) => s.ruleDraft);
  const setRuleDraft = useCorral((s) => s.setRuleDraft);
  const loadPolicyJournal = useCorral((s) => s.loadPolicyJournal);
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);

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
  const rules = settings.policies;
  // "Make this a rule…" on a group opens the editor on the prefilled rule.
  const shown: Editing | null =
    editing ?? (draft ? { index: rules.length, form: ruleToForm(draft), errors: {} } : null);
  const closeEditor = () => {
    setEditing(null);
    if (draft) setRuleDraft(null);
  };
  const saveEditor = () => {
    if (!shown) return;
    const checked = checkRule(rules, shown.index, shown.form);
    if (!checked.ok) {
      setEditing({ ...shown, errors: checked.errors });
      return;
    }
    apply({ policies: checked.rules }, closeEditor);
  };
  const agentNames = [...new Set([...HOOK_AGENT_NAMES, ...settings.agents.map((a) => a.name)])];

  return (
    <fieldset className="policies" aria-labelledby="policies-title">
      <legend id="policies-title">Policies</legend>
      <div className="field">
        <label htmlFor="policy-mode">Mode</label>
        <select
          id="policy-mode"
          value={settings.policyMode}
          disabled={saving}
          onChange={(event) => apply({ policyMode: event.target.value as PolicyMode })}
        >
          <option value="observe">Observe: record what rules would do</option>
          <option value="enforce">Enforce: act</option>
        </select>
      </div>
      <p data-testid="policy-summary">
        {settings.policyMode === 'observe'
          ? `Would have stopped ${wouldStop} group${wouldStop === 1 ? '' : 's'} today.`
          : `Stopped ${stopped} group${stopped === 1 ? '' : 's'} today.`}
      </p>
      {rules.length === 0 ? (
        <p className="empty">No rules yet. Add one here, or use “Make this a rule…” on a flagged group.</p>
      ) : (
        <ul aria-label="Policy rules" className="rule-list">
          {rules.map((rule, i) => (
            <li key={rule.name} data-testid="policy-rule">
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={rule.enabled !== false}
                  disabled={saving}
                  aria-label={`Enable ${rule.name}`}
                  onChange={(event) =>
                    apply({
                      policies: rules.map((r, j) => (j === i ? { ...r, enabled: event.target.checked } : r)),
                    })
                  }
                />
                <span>
                  <strong>{rule.name}</strong> — {rule.action} when {describeMatch(rule)}
                </span>
              </label>
              <span className="rule-buttons">
                <button
                  type="button"
                  aria-label={`Edit ${rule.name}`}
                  disabled={saving}
                  onClick={() => setEditing({ index: i, form: ruleToForm(rule), errors: {} })}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Delete ${rule.name}`}
                  disabled={saving}
                  onClick={() => apply({ policies: rules.filter((_, j) => j !== i) })}
                >
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {shown ? (
        <PolicyRuleEditor
          key={shown.index}
          form={shown.form}
          errors={shown.errors}
          agentNames={agentNames}
          busy={saving}
          isNew={shown.index === rules.length}
          onChange={(form) => setEditing({ ...shown, form, errors: {} })}
          onSave={saveEditor}
          onCancel={closeEditor}
        />
      ) : (
        <div className="form-actions">
          <button
            type="button"
            disabled={saving}
            onClick={() => setEditing({ index: rules.length, form: EMPTY_RULE, errors: {} })}
          >
            Add a rule…
          </button>
        </div>
      )}
      <PoliciesJson rules={rules} busy={saving} onSave={(policies) => apply({ policies })} />
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
