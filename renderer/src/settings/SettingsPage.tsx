import { useEffect, useState, type FormEvent } from 'react';
import type { ConfigProblems } from '../../../shared/contract';
import type { Settings } from '../../../shared/model';
import { useCorralApi } from '../store/store-context';
import { errorMessage } from '../sync/errors';
import { PoliciesSection } from '../policies/PoliciesSection';
import { HooksSection } from '../hooks/HooksSection';
import { NumberField } from './NumberField';
import {
  LIMITS,
  parseSettingsForm,
  settingsToForm,
  type FieldErrors,
  type SettingsField,
  type SettingsForm,
} from './settings-form';

type SaveState =
  { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'rejected'; errors: string[] };

export function SettingsPage() {
  const api = useCorralApi();
  const [current, setCurrent] = useState<Settings | null>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  const [problems, setProblems] = useState<ConfigProblems | null>(null);

  useEffect(() => {
    let live = true;
    api.request('config:problems', undefined).then(
      (found) => live && setProblems(found),
      () => undefined,
    );
    api.request('settings:get', undefined).then(
      (settings) => {
        if (!live) return;
        setCurrent(settings);
        setForm(settingsToForm(settings));
      },
      (error: unknown) => live && setLoadError(errorMessage(error)),
    );
    return () => {
      live = false;
    };
  }, [api]);

  if (loadError) {
    return (
      <p role="alert" className="error">
        Could not load settings: {loadError}
      </p>
    );
  }
  if (!current || !form) return <p className="empty">Loading settings…</p>;

  const update = (field: SettingsField, value: string) => {
    setForm({ ...form, [field]: value });
    setSave({ kind: 'idle' });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseSettingsForm(form, current);
    if (!parsed.ok) {
      setFieldErrors(parsed.errors);
      return;
    }
    setFieldErrors({});
    setSave({ kind: 'saving' });
    api.request('settings:set', parsed.patch).then(
      (response) => {
        if (response.ok) {
          setCurrent(response.settings);
          setForm(settingsToForm(response.settings));
          setSave({ kind: 'saved' });
        } else {
          setSave({ kind: 'rejected', errors: response.errors });
        }
      },
      (error: unknown) => setSave({ kind: 'rejected', errors: [errorMessage(error)] }),
    );
  };

  return (
    <div className="settings-page">
      <form className="settings" aria-labelledby="settings-title" onSubmit={submit} noValidate>
        <h2 id="settings-title">Settings</h2>
        {problems && problems.errors.length > 0 && (
          <section role="alert" aria-label="Config file problems" className="config-problems">
            <p>
              The config file {problems.path} has {problems.errors.length === 1 ? 'a problem' : 'problems'};
              the defaults are used where it is wrong. Saving here rewrites it with valid values.
            </p>
            <ul>
              {problems.errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </section>
        )}
        <NumberField
          id="poll-interval"
          label="Poll interval (ms)"
          value={form.pollIntervalMs}
          error={fieldErrors.pollIntervalMs}
          limits={LIMITS.pollIntervalMs}
          onChange={(v) => update('pollIntervalMs', v)}
        />
        <fieldset>
          <legend>Runaway detection</legend>
          <NumberField
            id="runaway-cpu"
            label="Runaway threshold (% of one core)"
            value={form.cpuPercent}
            error={fieldErrors.cpuPercent}
            limits={LIMITS.cpuPercent}
            onChange={(v) => update('cpuPercent', v)}
          />
          <NumberField
            id="runaway-window"
            label="Runaway window (seconds)"
            value={form.windowSeconds}
            error={fieldErrors.windowSeconds}
            limits={LIMITS.windowSeconds}
            onChange={(v) => update('windowSeconds', v)}
          />
        </fieldset>
        <NumberField
          id="grace"
          label="Grace period before SIGKILL (ms)"
          value={form.graceMs}
          error={fieldErrors.graceMs}
          limits={LIMITS.graceMs}
          onChange={(v) => update('graceMs', v)}
        />
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.notificationsEnabled}
            onChange={(event) => {
              setForm({ ...form, notificationsEnabled: event.target.checked });
              setSave({ kind: 'idle' });
            }}
          />
          Notifications
        </label>
        {/* Raw JSON is for the few who add an agent Corral does not know: out of the way until asked for. */}
        <details className="advanced" open={fieldErrors.agentsJson ? true : undefined}>
          <summary>Advanced: extra agent signatures</summary>
          <div className="field">
            <label htmlFor="agents-json">Extra agent signatures (JSON)</label>
            <textarea
              id="agents-json"
              rows={10}
              spellCheck={false}
              value={form.agentsJson}
              aria-invalid={fieldErrors.agentsJson ? true : undefined}
              aria-describedby={fieldErrors.agentsJson ? 'agents-json-error' : 'agents-json-help'}
              onChange={(event) => update('agentsJson', event.target.value)}
            />
            <p id="agents-json-help" className="help">
              An array of {'{'} name, comm, commandPatterns, envMarkers, pidEnv, toolCallPatterns {'}'}.
            </p>
            {fieldErrors.agentsJson ? (
              <p id="agents-json-error" className="field-error" data-testid="error-agents-json">
                {fieldErrors.agentsJson}
              </p>
            ) : null}
          </div>
        </details>
        {save.kind === 'rejected' ? (
          <div role="alert" className="error" data-testid="server-errors">
            <p>Corral rejected these settings:</p>
            <ul>
              {save.errors.map((error, i) => (
                <li key={i}>{error}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={save.kind === 'saving'}>
            Save
          </button>
          <span role="status">
            {save.kind === 'saved' ? 'Saved.' : save.kind === 'saving' ? 'Saving…' : ''}
          </span>
        </div>
      </form>
      <PoliciesSection settings={current} onSaved={setCurrent} />
      <HooksSection />
    </div>
  );
}
