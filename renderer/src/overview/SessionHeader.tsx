import type { GroupView, SessionRef } from '../../../shared/model';
import {
  listedSessionWords,
  projectName,
  sessionAgentWords,
  sessionIdsOf,
  shortSessionId,
} from '../../../shared/words/provenance-text';
import { Age } from '../shared-ui/Age';
import { sessionLeftovers } from '../store/selectors';

interface SessionHeaderProps {
  session: SessionRef;
  /** Every group in the snapshot: the session's leftovers count whatever the filter shows. */
  allGroups: readonly GroupView[];
  columns: number;
  compact: boolean;
  onStopSession: (session: SessionRef, leftovers: GroupView[]) => void;
}

const SOURCE_WORDS: Record<SessionRef['source'], string> = {
  env: "the processes' environment",
  lineage: "Corral's lineage memory",
  transcript: "the agent's transcript",
};

const AGENT_STATE = {
  'agent alive': { className: 'alive', title: "The session's agent is running" },
  'agent exited': { className: 'exited', title: "The session's agent is gone" },
  'agent not known': {
    className: 'unknown',
    title: 'No running process ties this session to its agent, and an agent of its kind is running',
  },
} as const;

/** One agent session under its agent: project, short id, whether its agent lives, its first leftover's age. */
export function SessionHeader({ session, allGroups, columns, compact, onStopSession }: SessionHeaderProps) {
  const leftovers = sessionLeftovers(allGroups, session.id);
  const short = shortSessionId(session.id, sessionIdsOf(allGroups));
  const agentWords = sessionAgentWords(session.agentAlive);
  const agent = AGENT_STATE[agentWords];
  const project = projectName(session.project);
  const listed = listedSessionWords(session);
  const firstLeftover = leftovers.length > 0 ? Math.min(...leftovers.map((g) => g.startedAt)) : null;
  return (
    <tr className="session-row agent-session" data-testid="agent-session" data-session-id={session.id}>
      <td colSpan={columns}>
        <div className="session-line">
          <span className="session-project" title={session.project ?? 'project unknown'}>
            {project ?? 'unknown project'}
          </span>
          <code
            className="session-id"
            title={`session ${session.id}, found in ${SOURCE_WORDS[session.source]}`}
          >
            {short}
          </code>
          {listed !== null ? (
            <span
              className="session-listed"
              data-testid="session-listed"
              title="What the agent's own session list says (claude agents --json, qwen sessions ps --json)"
            >
              {listed}
            </span>
          ) : null}
          <span
            className={`session-agent ${agent.className}`}
            data-testid="session-agent"
            title={agent.title}
          >
            {agentWords}
          </span>
          {firstLeftover !== null ? (
            <span
              className="muted"
              data-testid="session-age"
              title="When the session's first leftover started"
            >
              {compact ? '' : 'first leftover '}
              <Age since={firstLeftover} /> ago
            </span>
          ) : null}
          {leftovers.length > 0 ? (
            <button
              type="button"
              className="danger session-stop"
              aria-label={`Stop everything session ${short} left…`}
              title={`Stop the ${leftovers.length} group${leftovers.length === 1 ? '' : 's'} this session left (not the agent)`}
              onClick={() => onStopSession(session, leftovers)}
            >
              {compact ? 'Stop session…' : 'Stop everything this session left…'}
            </button>
          ) : null}
        </div>
      </td>
    </tr>
  );
}
