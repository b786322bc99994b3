// The hook's own entry (out/main/corral-hook.js): `corral-hook.js hook <agent> <event>`. The full CLI
// loads its config (and RE2) before any command; a hook needs neither, and an agent waits for it.
import { writeSync } from 'node:fs';
import { runHookProcess } from './hook-process';

const [command, ...args] = process.argv.slice(2);
if (command !== 'hook') {
  process.stderr.write(
    `corral-hook: expected 'hook <agent> <event>', got '${process.argv.slice(2).join(' ')}'\n`,
  );
  process.exitCode = 2;
} else {
  // writeSync, not process.stdout: a piped stdout is a net.Socket, and loading net costs a hook ~30 ms.
  void runHookProcess(args, (text) => writeSync(1, `${text}\n`)).then((code) => {
    process.exitCode = code;
  });
}
