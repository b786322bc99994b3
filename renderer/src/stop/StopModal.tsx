import { useEffect, useId, useRef, type ReactNode } from 'react';

interface StopModalProps {
  title: string;
  testId: string;
  /** A line under the title saying whose processes these are. */
  subtitle?: ReactNode;
  /** Once confirmed the body shows outcomes and the only action left is Close. */
  started: boolean;
  /** Nothing to signal: Stop stays disabled. */
  nothingToStop: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}

/**
 * The shell every stop confirmation shares: a modal dialog named by its title, Cancel focused first and
 * Escape to leave, Stop (danger) to confirm, then Close once the stop has started.
 */
export function StopModal({
  title,
  testId,
  subtitle,
  started,
  nothingToStop,
  onConfirm,
  onClose,
  children,
}: StopModalProps) {
  const titleId = useId();
  const dismissRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    dismissRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid={testId}>
        <h2 id={titleId}>{title}</h2>
        {subtitle ? <p className="muted dialog-command">{subtitle}</p> : null}
        {children}
        <div className="modal-actions">
          <button type="button" ref={dismissRef} onClick={onClose}>
            {started ? 'Close' : 'Cancel'}
          </button>
          {started ? null : (
            <button type="button" className="danger" onClick={onConfirm} disabled={nothingToStop}>
              Stop
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
