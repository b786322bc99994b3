interface NumberFieldProps {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  limits: { min: number; max: number };
  onChange: (value: string) => void;
}

export function NumberField({ id, label, value, error, limits, onChange }: NumberFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder={`${limits.min}–${limits.max}`}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <p id={errorId} className="field-error" data-testid={`error-${id}`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
