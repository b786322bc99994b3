import type { Settings } from '../../../shared/model';
import { UsageError } from '../usage-error';

export async function runHistory(_args: string[], _settings: Settings, _out: (text: string) => void): Promise<number> {
  throw new UsageError('not built yet');
}
