import type { SignalRecord } from '../model';

/** `3 s`, `1.5 s`, `500 ms`. */
export function formatGrace(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** "This process will get SIGTERM…" / "These 3 processes will get SIGTERM…", with the grace period. */
export function targetsSentence(count: number, graceMs: number | null): string {
  if (count === 0) return 'No process to signal.';
  const grace = graceMs === null ? 'after the grace period' : `after ${formatGrace(graceMs)}`;
  const subject = count === 1 ? 'This process' : `These ${count} processes`;
  return `${subject} will get SIGTERM, then SIGKILL ${grace} if still running:`;
}

const RESULT_WORDS: Record<SignalRecord['result'], string> = {
  sent: 'delivered',
  ESRCH: 'already gone, nothing to signal',
  EPERM: 'not permitted',
  error: 'failed',
};

/** A signal in plain words: `SIGTERM to group 144: delivered`. */
export function describeSignal(s: SignalRecord): string {
  const target = /^-\d+$/.test(s.target) ? `group ${s.target.slice(1)}` : `pid ${s.target.split('@')[0]}`;
  return `${s.signal} to ${target}: ${RESULT_WORDS[s.result] ?? s.result}`;
}
