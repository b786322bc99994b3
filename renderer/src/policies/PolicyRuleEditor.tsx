import type { ReactNode } from 'react';
import { FLAG_MEANING, FLAG_WORDS } from '../../../shared/words/flag-words';
import { POLICY_FLAGS } from '../../../shared/policy-validation';
import type { RuleErrors, RuleField, RuleForm } from './policy-form';

interface PolicyRuleEditorProps {
  form: RuleForm;
  errors: RuleErrors;
  /** Agent names to offer as choices (the rule's own are added). */
  agentNames: readonly string[];
  busy: boolean;
  isNew: boolean;
  onChange: (form: RuleForm) => void;
  onSave: () => void;
  onCancel: () => void;
}

function FieldErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors || errors.length === 0) return null;
  return (
    <p id={id} className="field-error" data-testid={id}>
      {errors.join(' ')}
    </p>
  );
}

/** One labelled text field of the rule, with the core's complaint about it beneath. */
function TextField(props: {
  field: RuleField & keyof RuleForm;
  label: string;
  form: RuleForm;
  errors: RuleErrors;
  placeholder?: string;
  help?: ReactNode;
  onChange: (value: string) => void;
}) {
  const id = `rule-${props.field}`;
  const error = props.errors[props.field];
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="text"
        value={props.form[props.field] as string}
        placeholder={props.placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.help ? <p className="help">{props.help}</p> : null}
      <FieldErrors id={`${id}-error`} errors={error} />
    </div>
  );
}

const toggle = (list: readonly string[], item: string, on: boolean): string[] =>
  on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item);

/**
 * A policy rule as a form: its name, what it matches (agents, flags, session, command, ports and
 * thresholds, every one given must hold) and what it does. Errors are the core validator's, each
 * under the field it is about.
 */
export function PolicyRuleEditor({
  form,
  errors,
  agentNames,
  busy,
  isNew,
  onChange,
  onSave,
  onCancel,
}: PolicyRuleEditorProps) {
  const set = <K extends keyof RuleForm>(key: K, value: RuleForm[K]) => onChange({ ...form, [key]: value });
  const agents = [...new Set([...agentNames, ...form.agents])];
  const flags = [...new Set([...POLICY_FLAGS, ...form.flags])];
  const field = { form, errors };

  return (
    <div
      className="rule-editor"
      role="group"
      aria-label={isNew ? 'New rule' : `Edit rule ${form.name}`}
      data-testid="rule-editor"
    >
      <TextField
        {...field}
        field="name"
        label="Name"
        placeholder="e.g. stop-orphaned-loops"
        onChange={(v) => set('name', v)}
      />
      <fieldset className="choice">
        <legend>When a group matches</legend>
        <label className="checkbox">
          <input
            type="radio"
            name="rule-action"
            checked={form.action === 'notify'}
            onChange={() => set('action', 'notify')}
          />
          Notify me
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name="rule-action"
            checked={form.action === 'stop'}
            onChange={() => set('action', 'stop')}
          />
          Stop the group (only in Enforce mode)
        </label>
        <FieldErrors id="rule-action-error" errors={errors.action} />
      </fieldset>
      <fieldset className="choice">
        <legend>Agents (any of them; none ticked: any agent)</legend>
        <div className="choice-list">
          {agents.map((name) => (
            <label key={name} className="checkbox">
              <input
                type="checkbox"
                checked={form.agents.includes(name)}
                onChange={(event) => set('agents', toggle(form.agents, name, event.target.checked))}
              />
              {name}
            </label>
          ))}
        </div>
        <FieldErrors id="rule-agents-error" errors={errors.agents} />
      </fieldset>
      <fieldset className="choice">
        <legend>Flags (all of them)</legend>
        <div className="choice-list">
          {flags.map((flag) => (
            <label
              key={flag}
              className="checkbox"
              title={(FLAG_MEANING as Record<string, string>)[flag] ?? flag}
            >
              <input
                type="checkbox"
                checked={form.flags.includes(flag)}
                onChange={(event) => set('flags', toggle(form.flags, flag, event.target.checked))}
              />
              {(FLAG_WORDS as Record<string, string>)[flag] ?? flag}
              <code className="muted">{flag}</code>
            </label>
          ))}
        </div>
        <FieldErrors id="rule-flags-error" errors={errors.flags} />
      </fieldset>
      <div className="field">
        <label htmlFor="rule-session">Agent session</label>
        <select
          id="rule-session"
          value={form.session}
          onChange={(event) => set('session', event.target.value as RuleForm['session'])}
        >
          <option value="">Either</option>
          <option value="ended">Ended (the agent or its session is gone)</option>
          <option value="running">Still running</option>
        </select>
        <FieldErrors id="rule-session-error" errors={errors.session} />
      </div>
      <div className="field">
        <label htmlFor="rule-commandPatterns">Command matches (one pattern a line, any of them)</label>
        <textarea
          id="rule-commandPatterns"
          rows={2}
          spellCheck={false}
          value={form.commandPatterns}
          placeholder="e.g. vite|next dev"
          aria-invalid={errors.commandPatterns ? true : undefined}
          onChange={(event) => set('commandPatterns', event.target.value)}
        />
        <p className="help">RE2 regular expressions, matched against each process&apos;s command line.</p>
        <FieldErrors id="rule-commandPatterns-error" errors={errors.commandPatterns} />
      </div>
      <div className="field-row">
        <TextField
          {...field}
          field="ports"
          label="Listens on port"
          placeholder="e.g. 3000, 5173"
          onChange={(v) => set('ports', v)}
        />
        <TextField
          {...field}
          field="minAgeSeconds"
          label="Older than (s)"
          onChange={(v) => set('minAgeSeconds', v)}
        />
        <TextField
          {...field}
          field="minCpuSeconds"
          label="CPU used at least (s)"
          onChange={(v) => set('minCpuSeconds', v)}
        />
        <TextField
          {...field}
          field="minMemoryMegabytes"
          label="Memory at least (MB)"
          onChange={(v) => set('minMemoryMegabytes', v)}
        />
        {form.action === 'stop' ? (
          <TextField
            {...field}
            field="graceMs"
            label="Grace before SIGKILL (ms)"
            placeholder="default"
            onChange={(v) => set('graceMs', v)}
          />
        ) : null}
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={form.enabled}
          onChange={(event) => set('enabled', event.target.checked)}
        />
        Enabled
      </label>
      {errors.rule ? (
        <ul role="alert" className="error" data-testid="rule-errors">
          {errors.rule.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      ) : null}
      <div className="form-actions">
        <button type="button" className="primary" disabled={busy} onClick={onSave}>
          {isNew ? 'Add rule' : 'Save rule'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
