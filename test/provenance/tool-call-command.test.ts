import { describe, expect, it } from 'vitest';
import {
  commandInsideEval,
  commandInsideGeminiScript,
  commandMentions,
} from '../../main/core/provenance/tool-call-command';

describe('commandInsideEval', () => {
  it.each([
    [
      "source /root/.claude/shell-snapshots/snapshot-bash-1.sh 2>/dev/null || true && eval 'npm run dev' \\< /dev/null && pwd -P >| /tmp/claude-1f-cwd",
      'npm run dev',
    ],
    ["eval 'echo '\\''quoted'\\'' && ls' && pwd", "echo 'quoted' && ls"],
    ['eval \'a\'"b"', null],
    ['bash -c npm run dev', null],
    ["eval 'unterminated", null],
  ])('%s', (line, expected) => {
    expect(commandInsideEval(line)).toBe(expected);
  });
});

describe('commandMentions', () => {
  it.each([
    ['python3 -m http.server 8000 &', 'python3 -m http.server 8000', true],
    ['cd web && npm run dev > log 2>&1 &', 'npm run dev', true],
    ['nohup  sleep   600 &', 'sleep 600', true],
    ['sleep 6000 &', 'sleep 600', false],
    ['python3 -m http.server 8000', 'sleep 600', false],
    ['x', 'x', false],
  ])('%s mentions %s: %s', (command, processCommand, expected) => {
    expect(commandMentions(command, processCommand)).toBe(expected);
  });
});

describe('commandInsideGeminiScript', () => {
  // As Gemini CLI 0.61 wrote it (test/agents/gemini-cli-e2e.test.ts saw it in /proc/<pid>/cmdline).
  const script = (cmd: string) =>
    `shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=/tmp/gemini-shell-e20bD0/bgpids.tmp\n(\n  trap 'jobs -p > "$_bgpids_file"' EXIT\n${cmd}\n)\n__code=$?\nexit $__code`;
  it.each([
    ['npm run dev &', 'npm run dev &'],
    ['a\n)\n__code=$?\nb', 'a\n)\n__code=$?\nb'],
  ])('%j', (cmd, inside) => expect(commandInsideGeminiScript(script(cmd))).toBe(inside));
  it('is null for any other script', () => {
    expect(commandInsideGeminiScript('npm run dev')).toBeNull();
    expect(commandInsideGeminiScript(`trap 'jobs -p > "$_bgpids_file"' EXIT\nnpm run dev`)).toBeNull();
  });
});
