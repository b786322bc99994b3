import { join } from 'node:path';
import type { GroupView } from '../../../shared/model';
import type { SessionMarks } from '../analysis/agent-matcher';
import { identityKey } from '../model/identity';
import type { ProcessRecord } from '../model/process-record';
import type { NoteRefusal } from '../files/untrusted-file';
import { readClaudeSessionFile } from './claude-session-files';
import type { TranscriptCall } from './claude-transcript-records';
import { ClaudeTranscripts, TRANSCRIPT_TAIL_BYTES } from './claude-transcripts';
import { locateCodexSession } from './codex-session-files';
import { collectCodexCalls } from './codex-session-records';
import { START_SLACK_MS } from './match-tool-call';
import { McpConfigs } from './mcp-configs';
import { OwnerHomes } from './owner-home';
import { locateQwenChat } from './qwen-chat-files';
import { collectQwenCalls } from './qwen-chat-records';
import type { ReadBudget } from './read-budget';

/**
 * Where each agent keeps its files, and their reading with caches: Claude Code's session files and
 * transcripts (under CLAUDE_CONFIG_DIR or HOME), Codex's session files (CODEX_HOME), Qwen Code's chat
 * records, and the agents' MCP configurations. Every read is within the pass's budget.
 */
export class AgentFiles {
  private readonly homes = new OwnerHomes();
  private readonly transcripts = new ClaudeTranscripts();
  private readonly codexSessions = new ClaudeTranscripts(TRANSCRIPT_TAIL_BYTES, collectCodexCalls);
  private readonly qwenChats = new ClaudeTranscripts(TRANSCRIPT_TAIL_BYTES, collectQwenCalls);
  private readonly mcpConfigs: McpConfigs;
  private readonly sessionFiles = new Map<string, { at: number; value: string | null }>();
  /** Codex session files found, by `<CODEX_HOME>\0<thread id>`; a miss is looked for again next time. */
  private readonly codexSessionPaths = new Map<string, string>();

  constructor(
    private readonly refreshMs: number,
    private readonly now: () => number,
    private readonly budget: ReadBudget,
    private readonly noteFile: NoteRefusal,
  ) {
    this.mcpConfigs = new McpConfigs(now, undefined, noteFile);
  }

  /**
   * The calls of the session's transcript that a leftover started at `g.startedAt` could come from:
   * Claude Code's transcript (under the tool call's CLAUDE_CONFIG_DIR or HOME), Qwen Code's chat
   * records (its QWEN_CODE_PROJECT_DIR, or found under HOME). Null for other agents, or when not found.
   */
  transcriptOf(
    g: GroupView,
    session: SessionMarks,
    cwd: string | null,
    witness: ProcessRecord,
  ): Map<string, TranscriptCall> | null {
    const since = g.startedAt - START_SLACK_MS;
    if (g.agent?.name === 'claude-code') {
      const path = this.transcripts.locate(this.claudeConfigDir(witness), session.sessionId, cwd);
      return path
        ? this.transcripts.bashCalls(path, since, { owner: witness.uid, note: this.noteFile })
        : null;
    }
    if (g.agent?.name === 'qwen-code') {
      const own = witness.markers.QWEN_CODE_PROJECT_DIR;
      const path = locateQwenChat(own?.startsWith('/') ? own : null, this.homeOf(witness), session.sessionId);
      return path ? this.qwenChats.bashCalls(path, since, { owner: witness.uid, note: this.noteFile }) : null;
    }
    return null;
  }

  /** Codex hands a call's id to its descendants (CODEX_TOOL_CALL_ID): the call is found by id. */
  codexCall(
    g: GroupView,
    session: SessionMarks,
    id: string,
    witness: ProcessRecord,
  ): TranscriptCall | undefined {
    const path = this.codexSessionPath(this.codexHome(witness), session.sessionId);
    return path
      ? this.codexSessions
          .bashCalls(path, g.startedAt - START_SLACK_MS, { owner: witness.uid, note: this.noteFile })
          .get(id)
      : undefined;
  }

  /** The session named by a Claude Code process's session file, re-read every `refreshMs`. */
  sessionFileOf(r: ProcessRecord, platform: string): string | null {
    const key = identityKey(r.pid, r.startKey);
    const now = this.now();
    const hit = this.sessionFiles.get(key);
    if (hit && (now - hit.at < this.refreshMs || !this.budget.mayRead())) return hit.value;
    if (!this.budget.mayRead()) return null;
    const value = readClaudeSessionFile(
      this.claudeConfigDir(r),
      r.pid,
      platform === 'linux' ? r.startKey : null,
      {
        owner: r.uid,
        note: this.noteFile,
      },
    );
    if (this.sessionFiles.size > 1024) this.sessionFiles.clear();
    this.sessionFiles.set(key, { at: now, value });
    return value;
  }

  mcpServersOf(agent: string, owner: ProcessRecord, cwd: string | null) {
    if (!this.budget.mayRead()) return [];
    const home = this.homeOf(owner);
    if (!home) return [];
    const own = (key: string) => (owner.markers[key]?.startsWith('/') ? owner.markers[key] : undefined);
    return this.mcpConfigs.serversOf({
      agent,
      home,
      claudeConfigDir: own('CLAUDE_CONFIG_DIR'),
      codexHome: own('CODEX_HOME'),
      projectDir: cwd && cwd.startsWith('/') ? cwd : null,
      owner: owner.uid,
    });
  }

  private codexSessionPath(codexHome: string, threadId: string): string | null {
    const key = `${codexHome}\0${threadId}`;
    const known = this.codexSessionPaths.get(key);
    if (known) return known;
    const found = locateCodexSession(codexHome, threadId);
    if (found) {
      if (this.codexSessionPaths.size > 1024) this.codexSessionPaths.clear();
      this.codexSessionPaths.set(key, found);
    }
    return found;
  }

  private codexHome(r: ProcessRecord): string {
    const own = r.markers.CODEX_HOME;
    if (own && own.startsWith('/')) return own;
    return join(this.homeOf(r) ?? '/nonexistent', '.codex');
  }

  private claudeConfigDir(r: ProcessRecord): string {
    const own = r.markers.CLAUDE_CONFIG_DIR;
    if (own && own.startsWith('/')) return own;
    return join(this.homeOf(r) ?? '/nonexistent', '.claude');
  }

  /**
   * The home the agent ran with: the process's own HOME (inherited from the agent, which may run with
   * another than its owner's, as in a container or a CI job), else the owner's from passwd.
   */
  private homeOf(r: ProcessRecord): string | null {
    const own = r.markers.HOME;
    if (own && own.startsWith('/')) return own;
    return this.homes.homeOf(r.uid);
  }
}
