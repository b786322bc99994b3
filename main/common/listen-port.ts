import { parsePortNumber } from '../../shared/port-number';
import { UsageError } from './usage-error';

/** `--port` of a command that listens (`serve`, `metrics`): 0..65535, 0 for any free port. */
export function listenPort(value: string): number {
  const port = parsePortNumber(value, { allowZero: true });
  if (port === null) throw new UsageError(`--port: expected 0..65535, got '${value}'`);
  return port;
}
