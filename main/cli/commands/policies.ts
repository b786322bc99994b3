import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import type { Settings } from '../../../shared/model';
import { policiesNow, type PolicyReport } from '../../core/facade/groups-now';
import { formatTable, printable } from '../terminal-text';
import { keepsRefused } from '../keeps-refused';

/** The configured rules and what each matches right now (one look at the process table). */
export async function runPolicies(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values } = parseCommandArgs(COMMAND_SPECS.policies, args);
  const { sampledAt, report } = await policiesNow(settings, keepsRefused);
  out(values.json ? JSON.stringify({ sampledAt, ...report }) : renderPolicies(report));
  return 0;
}

export function renderPolicies(report: PolicyReport): string {
  const mode =
    report.mode === 'observe'
      ? 'Mode: observe (matches are recorded; nothing is signalled).'
      : 'Mode: enforce (stop rules stop the groups they match).';
  if (report.rules.length === 0)
    return `${mode}\nNo policies. Add rules under "policies" in the config file.`;
  const rows: string[][] = [['POLICY', 'ACTION', 'STATE', 'MATCHES', 'GROUP', 'AGENT', 'FLAGS', 'COMMAND']];
  for (const rule of report.rules) {
    rows.push([
      rule.name,
      rule.action,
      rule.enabled === false ? 'disabled' : 'enabled',
      String(rule.matches.length),
      '',
      '',
      '',
      '',
    ]);
    for (const m of rule.matches) {
      rows.push([
        '',
        '',
        '',
        '',
        m.groupId,
        m.agent ?? '-',
        m.flags.join(',') || '-',
        printable(
          `${m.command}${m.containsAgent ? " (holds the agent's process: never stopped)" : ''}`,
        ).slice(0, 200),
      ]);
    }
  }
  return `${mode}\n${formatTable(rows)}`;
}
