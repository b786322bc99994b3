import type { GroupView } from '../../../shared/model';
import {
  cwdInProject,
  groupPortNumbers,
  portsText,
  representative,
} from '../../../shared/words/provenance-text';
import { PortHistoryList } from './PortHistoryList';

/** Where a leftover runs and what it listens on: its cwd (relative to its project inside it) and ports. */
export function LeftoverContext({ group }: { group: GroupView }) {
  const cwd = representative(group)?.cwd ?? group.processes.find((p) => p.cwd)?.cwd ?? null;
  const ports = groupPortNumbers(group);
  if (cwd === null && ports.length === 0) return null;
  return (
    <span className="leftover-context muted">
      {cwd !== null ? (
        <span className="cwd" data-testid="group-cwd" title={cwd}>
          {cwdInProject(cwd, group.session?.project)}
        </span>
      ) : null}
      {ports.length > 0 ? (
        <span className="ports" data-testid="group-ports" title="Listening ports">
          {portsText(ports)}
        </span>
      ) : null}
      {ports.length > 0 ? <PortHistoryList group={group} ports={ports} /> : null}
    </span>
  );
}
