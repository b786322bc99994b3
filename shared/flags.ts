// The one table of group flags: every list, word, help text and label a flag has elsewhere (the
// model's GROUP_FLAGS, incident kinds, policies, metrics labels, the CLI's columns and colours, the
// UI's badges and tooltips, docs/glossary.md) derives from it. The name (`leaderless`) is the term in
// JSON, config and metrics and never changes; `word` is what a person reads, in the CLI and the UI alike.

/** Every group flag, in the order a group lists them. */
export const GROUP_FLAGS = [
  'orphan',
  'leaderless',
  'runaway',
  'held-pipe',
  'memory-hog',
  'spawn-storm',
  'session-ended',
] as const;
export type GroupFlag = (typeof GROUP_FLAGS)[number];

export interface FlagEntry {
  /** A word or two, for a badge or a column: the same in the CLI and the UI. */
  word: string;
  /** One clause: what it means for the user. */
  meaning: string;
  /** One sentence for a tooltip: why it matters, what to do. */
  help: string;
  /** Whether a leak with this flag is recorded as an incident of this kind (`corral history`). */
  incident: boolean;
  /** Whether a policy's `match.flags` may name it. */
  policies: boolean;
  /** The terminal's colour for it: red burns the machine, magenta wedges the agent. */
  colour: 'red' | 'yellow' | 'magenta' | 'cyan';
}

/** The table. `satisfies` refuses a flag without its words, and a word for no flag. */
export const FLAG_TABLE = {
  orphan: {
    word: 'orphan',
    meaning: 'its parent exited and PID 1 adopted it: nothing will stop it for you',
    help: 'its agent tool call ended but this process kept running, adopted by init; nobody will stop it for you — stop it if you did not mean to leave it running.',
    incident: true,
    policies: true,
    colour: 'yellow',
  },
  leaderless: {
    word: 'shell gone',
    meaning: "its tool call's shell has exited; what it started lives on",
    help: 'the process that started this group (usually the tool call’s shell) has exited and its children live on; they usually are leftovers — check the command and stop the group if it is not yours.',
    incident: true,
    policies: true,
    colour: 'cyan',
  },
  runaway: {
    word: 'runaway',
    meaning:
      'it has wanted a CPU (running or waiting for one) above the runaway threshold for the whole window',
    help: 'it has wanted a CPU above the runaway threshold for the whole window (running, or waiting for a busy core), draining battery and slowing the machine; stop it unless it is doing work you want.',
    incident: true,
    policies: true,
    colour: 'red',
  },
  'held-pipe': {
    word: 'holds pipe',
    meaning: "it holds the agent's output pipe: the agent may hang",
    help: 'it keeps an agent’s output pipe open, so the agent’s tool call cannot finish and may hang; stop this process to release the agent.',
    incident: true,
    policies: true,
    colour: 'magenta',
  },
  'memory-hog': {
    word: 'memory hog',
    meaning: 'it uses more memory than the configured limit',
    help: 'its memory use is above the configured limit and can push the machine into swap; stop it if it is not needed.',
    incident: true,
    policies: true,
    colour: 'red',
  },
  'spawn-storm': {
    word: 'spawn storm',
    meaning:
      'it keeps starting processes: one command over and over without a pause, or ever more of them alive (a fork or crash loop)',
    help: 'it keeps starting processes faster than any build does, or one command over and over, or ever more of them stay alive — a fork or crash loop; stop it unless you started it on purpose.',
    incident: true,
    policies: true,
    colour: 'red',
  },
  'session-ended': {
    word: 'session over',
    meaning: 'the agent session that started it is over',
    help: 'the agent session that started it is over, so nothing will come back for it; stop it unless you still use it.',
    incident: false,
    policies: true,
    colour: 'yellow',
  },
} as const satisfies Record<GroupFlag, FlagEntry>;

/** A process's flag that is no group's: it left its tool call's group (setsid). */
export const ESCAPED_ENTRY = {
  word: 'left its group',
  meaning: "it left its tool call's group (setsid) but came from it",
  help: 'it left its tool call’s group with setsid but came from it; stopping the group spares it unless you ask to include it.',
} as const satisfies Pick<FlagEntry, 'word' | 'meaning' | 'help'>;

/** The flags that make a leak an incident: an incident's `kind` and `flags` are among these. */
export type IncidentKind = {
  [F in GroupFlag]: (typeof FLAG_TABLE)[F]['incident'] extends true ? F : never;
}[GroupFlag];
export const INCIDENT_KINDS: readonly IncidentKind[] = GROUP_FLAGS.filter(
  (f): f is IncidentKind => FLAG_TABLE[f].incident,
);

/** The flags a policy may match. */
export const POLICY_FLAGS: readonly GroupFlag[] = GROUP_FLAGS.filter((f) => FLAG_TABLE[f].policies);

export function isGroupFlag(flag: string): flag is GroupFlag {
  return Object.hasOwn(FLAG_TABLE, flag);
}

/** A flag's entry, the process-only `escaped` included; null for a name Corral does not know. */
export function flagEntry(flag: string): Pick<FlagEntry, 'word' | 'meaning' | 'help'> | null {
  if (isGroupFlag(flag)) return FLAG_TABLE[flag];
  return flag === 'escaped' ? ESCAPED_ENTRY : null;
}
