import { BACKGROUND_TASK_LABEL, isLiveBackgroundTask } from '../../shared/background-task';
import { commandThatMatters } from '../../shared/words/command-summary';
import { formatCpuSeconds } from '../../shared/words/cpu-time';
import { INCIDENT_END_WORDS } from '../../shared/words/end-words';
import { FLAG_MEANING, flagWords } from '../../shared/words/flag-words';
import type { MonitorEvent } from '../../shared/model';
import { printable } from './terminal-text';

type Detail = NonNullable<MonitorEvent['detail']>;

/**
 * What an event means, in words first (the terms — `originalPpid`, the pipe's inode — stay in
 * `watch --json`): "adopted by PID 1: its parent (pid 655) exited".
 */
export function eventWords(e: MonitorEvent): string {
  const words = factWords(e);
  // A reparenting is a fact, told as it happens; what it means depends on the session (see
  // shared/background-task.ts): the views flag the group once its agent is gone, not before.
  if ((e.type === 'orphaned' || e.type === 'incident-opened') && isLiveBackgroundTask({ ...e, flags: [] }))
    return `${words}; a ${BACKGROUND_TASK_LABEL} its agent started on purpose, not a leftover while the session runs`;
  return words;
}

function factWords(e: MonitorEvent): string {
  const d: Detail = e.detail ?? {};
  switch (e.type) {
    case 'process-started':
      return 'started';
    case 'process-exited':
      return 'exited';
    case 'group-started':
      return 'new process group';
    case 'group-ended':
      return 'group ended: no process left';
    case 'orphaned':
      return d.reason === 'found adopted'
        ? `found already adopted by PID ${d.ppid}: its parent had exited`
        : `adopted by PID ${d.ppid}: its parent (pid ${d.originalPpid}) exited`;
    case 'held-pipe':
      return `${FLAG_MEANING['held-pipe']} (agent pid ${d.readerPid})`;
    case 'runaway':
      return `runaway: ${d.cpuPercent}% CPU`;
    case 'runaway-cleared':
      return `CPU back down to ${d.cpuPercent}%`;
    case 'memory-hog':
      return `uses ${d.megabytes} MB, over the memory limit`;
    case 'memory-hog-cleared':
      return `memory back down to ${d.megabytes} MB`;
    case 'spawn-storm':
      return d.reason === 'member-growth'
        ? `has ${d.members} processes alive and still growing${d.repeatedCommand ? `, mostly ${commandThatMatters(String(d.repeatedCommand))}` : ''}`
        : d.reason === 'repeated-command'
          ? `starts ${commandThatMatters(String(d.repeatedCommand))} ${d.repeatsPerMinute} times a minute`
          : `starts ${d.birthsPerMinute} processes a minute${d.repeatedCommand ? `, mostly ${commandThatMatters(String(d.repeatedCommand))}` : ''}`;
    case 'spawn-storm-summary':
      return `still storming: ${d.birthsSince} started in ${Math.round(Number(d.sinceMs) / 1000)} s (${d.birthsPerMinute} a minute)${d.repeatedCommand ? `, mostly ${commandThatMatters(String(d.repeatedCommand))}` : ''}`;
    case 'spawn-storm-cleared':
      return `starts processes slowly again (${d.birthsPerMinute} a minute)`;
    case 'incident-opened':
      return `leak recorded (${flagWords(String(d.kind))}; corral history lists it)`;
    case 'incident-closed':
      return `leak over: ${(INCIDENT_END_WORDS as Record<string, string>)[String(d.end)] ?? String(d.end)}, CPU ${formatCpuSeconds(Number(d.cpuSeconds ?? 0))}`;
    case 'signal-sent':
      // SIGCONT follows every SIGTERM (stopped members must run to end): said in words, not the kernel's name.
      if (d.signal === 'SIGCONT')
        return d.result === 'sent'
          ? 'woken so that paused processes can end'
          : d.result === 'ESRCH'
            ? 'nothing left to wake: its processes had ended'
            : `could not be woken (${d.result})`;
      return `${d.signal} sent to ${String(d.target).startsWith('-') ? `group ${String(d.target).slice(1)}` : `pid ${d.target}`}${d.by ? ` by ${d.by}` : ''}${d.result === 'sent' ? '' : ` (${d.result})`}`;
    case 'policy-matched':
      return `policy ${d.policy} matches (${d.action}${d.executed ? '' : ', observe mode: nothing done'})`;
    case 'stopped-by-policy':
      return `stopped by policy ${d.policy}${d.clean === false ? ': not every process is gone' : ''}`;
    default:
      return e.type;
  }
}

/** One line of watch's recent events: time, agent, group, command, what happened. */
export function describeEvent(e: MonitorEvent): string {
  const time = new Date(e.at).toISOString().slice(11, 19);
  const agent = e.agent ? `${e.agent.name}${e.agent.pid ? `(${e.agent.pid})` : ''}` : '-';
  const command = commandThatMatters(e.command ?? '');
  return printable(
    `${time} ${agent} group ${e.pgid} pid ${e.pid}${command ? ` ${command}` : ''}: ${eventWords(e)}`,
  );
}
