import type { AgentSignatureConfig } from '../../../shared/model';
import type { ProcessRecord } from '../model/process-record';
import { compileLinear, type LinearPattern } from './linear-pattern';
import { isSecretEnv } from './secret-env';

/** Command lines are matched on their first and last 4 KB: a regex over 2 MB of hostile argv could stall. */
const EDGE = 4096;

function boundedCommand(argv: readonly string[]): string {
  const command = argv.join(' ');
  // The tail is kept because Claude's tool-call marker (`-cwd` file) ends the command line.
  return command.length <= 2 * EDGE ? command : `${command.slice(0, EDGE)} ${command.slice(-EDGE)}`;
}

const INTERPRETERS = new Set(['node', 'nodejs', 'bun', 'deno', 'python', 'python3', 'tsx']);

interface CompiledSignature {
  name: string;
  comm: Set<string>;
  commandPatterns: LinearPattern[];
  envMarkers: string[];
  pidEnv: string | undefined;
  toolCallPatterns: LinearPattern[];
  sessionEnv: string[];
  toolCallEnv: string | undefined;
}

/** A session id (and a tool call id, where the agent exports one) read from a process's environment. */
export interface SessionMarks {
  sessionId: string;
  toolCallId: string | null;
}

export interface MarkerMatch {
  agent: string;
  /** The agent's main PID when the agent puts it in the environment. */
  agentPid: number | null;
}

/** Compiled agent signatures: which processes are agents, and which carry an agent's marks. */
export class AgentMatcher {
  private readonly signatures: CompiledSignature[];
  private readonly byName: Map<string, CompiledSignature>;
  /** Every environment variable worth reading from a process. */
  readonly markerKeys: ReadonlySet<string>;

  /** `extraEnv`: variables read along with the markers for provenance, never used to attribute. */
  constructor(signatures: readonly AgentSignatureConfig[], extraEnv: readonly string[] = []) {
    this.signatures = signatures.map((s) => ({
      name: s.name,
      comm: new Set(s.comm ?? []),
      commandPatterns: (s.commandPatterns ?? []).map(compileLinear),
      envMarkers: s.envMarkers ?? [],
      pidEnv: s.pidEnv,
      toolCallPatterns: (s.toolCallPatterns ?? []).map(compileLinear),
      sessionEnv: s.sessionEnv ?? [],
      toolCallEnv: s.toolCallEnv,
    }));
    this.byName = new Map();
    for (const s of this.signatures) if (!this.byName.has(s.name)) this.byName.set(s.name, s);
    const keys = new Set<string>();
    for (const s of this.signatures) {
      for (const k of s.envMarkers) keys.add(k);
      if (s.pidEnv) keys.add(s.pidEnv);
      for (const k of s.sessionEnv) keys.add(k);
      if (s.toolCallEnv) keys.add(s.toolCallEnv);
    }
    for (const k of extraEnv) keys.add(k);
    for (const k of keys) if (isSecretEnv(k)) keys.delete(k);
    this.markerKeys = keys;
  }

  /** The agent this process IS (its main process, a relaunch, a daemon), or null. */
  agentOf(record: Pick<ProcessRecord, 'name' | 'argv'>): string | null {
    const names = executableNames(record);
    const command = boundedCommand(record.argv);
    for (const s of this.signatures) {
      if (names.some((n) => s.comm.has(n))) return s.name;
      if (command && s.commandPatterns.some((p) => p.test(command))) return s.name;
    }
    return null;
  }

  /** The agent whose environment markers this process carries, or null. */
  markersOf(markers: Record<string, string>): MarkerMatch | null {
    for (const s of this.signatures) {
      if (s.envMarkers.some((k) => k in markers)) {
        const pidText = s.pidEnv ? markers[s.pidEnv] : undefined;
        const pid = pidText && /^\d+$/.test(pidText) ? Number(pidText) : null;
        return { agent: s.name, agentPid: pid };
      }
    }
    return null;
  }

  /**
   * The session id a process of `agent` carries in its environment, by that agent's own variables (an
   * agent started from another inherits the outer one's markers, so only the attributed agent's count).
   */
  sessionOf(agent: string, markers: Record<string, string>): SessionMarks | null {
    const s = this.byName.get(agent);
    if (!s) return null;
    const key = s.sessionEnv.find((k) => markers[k] !== undefined && markers[k] !== '');
    if (key === undefined) return null;
    const toolCallId = s.toolCallEnv ? markers[s.toolCallEnv] : undefined;
    return { sessionId: markers[key]!, toolCallId: toolCallId ? toolCallId : null };
  }

  /** The agent whose tool-call shell this command line is (e.g. Claude's shell-snapshot wrapper). */
  toolCallOf(argv: readonly string[]): string | null {
    if (argv.length === 0) return null;
    const command = boundedCommand(argv);
    for (const s of this.signatures) if (s.toolCallPatterns.some((p) => p.test(command))) return s.name;
    return null;
  }
}

function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash >= 0 ? path.slice(slash + 1) : path;
}

/** comm, argv[0]'s basename, and for interpreters the script's basename. */
export function executableNames(record: Pick<ProcessRecord, 'name' | 'argv'>): string[] {
  const names = [record.name];
  const argv0 = record.argv[0];
  if (argv0 !== undefined) {
    // argv[0] may hold the whole command line when a process rewrote its title.
    const first = basename(argv0.split(' ')[0] ?? '');
    names.push(first);
    if (INTERPRETERS.has(first) || INTERPRETERS.has(record.name)) {
      const script = record.argv.slice(1).find((a) => !a.startsWith('-'));
      if (script) names.push(basename(script));
    }
  }
  return names;
}
