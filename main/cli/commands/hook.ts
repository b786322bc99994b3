import type { Settings } from '../../../shared/model';
import { runHookProcess } from '../../hooks/hook-process';

/** `corral hook <agent> <event>` through the full CLI (the built hook entry skips the CLI: hook-main.ts). */
export async function runHookCommand(
  args: string[],
  _settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  return runHookProcess(args, out);
}
