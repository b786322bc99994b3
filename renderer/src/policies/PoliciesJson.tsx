import { useEffect, useState } from 'react';
import type { PolicyRule } from '../../../shared/model';
import { checkPoliciesJson } from './policy-form';

interface PoliciesJsonProps {
  rules: readonly PolicyRule[];
  busy: boolean;
  onSave: (rules: PolicyRule[]) => void;
}

const asJson = (rules: readonly PolicyRule[]): string => JSON.stringify(rules, null, 2);

/** The rules as the config file holds them, for pasting or editing by hand: out of the way until asked for. */
export function PoliciesJson({ rules, busy, onSave }: PoliciesJsonProps) {
  const [text, setText] = useState(() => asJson(rules));
  const [errors, setErrors] = useState<string[]>([]);
  // The saved rules changed (the form, a toggle): show them, unless the user is mid-edit here.
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (!edited) setText(asJson(rules));
  }, [rules, edited]);

  const save = () => {
    const checked = checkPoliciesJson(text);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors([]);
    setEdited(false);
    onSave(checked.rules);
  };

  return (
    <details className="advanced" open={errors.length > 0 ? true : undefined}>
      <summary>Advanced: rules as JSON</summary>
      <div className="field">
        <label htmlFor="policies-json">The config file&apos;s policies list</label>
        <textarea
          id="policies-json"
          rows={10}
          spellCheck={false}
          value={text}
          aria-invalid={errors.length > 0 ? true : undefined}
          aria-describedby={errors.length > 0 ? 'policies-json-error' : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setEdited(true);
            setErrors([]);
          }}
        />
        {errors.length > 0 ? (
          <ul id="policies-json-error" className="field-error" data-testid="policies-json-error">
            {errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="form-actions">
        <button type="button" disabled={busy || !edited} onClick={save}>
          Save JSON
        </button>
        <button
          type="button"
          disabled={!edited}
          onClick={() => {
            setEdited(false);
            setErrors([]);
          }}
        >
          Revert
        </button>
      </div>
    </details>
  );
}
