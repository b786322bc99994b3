import { describe, expect, it } from 'vitest';
import { commandThatMatters } from '../../shared/words/command-summary';

describe('commandThatMatters', () => {
  it.each([
    [
      'Claude Code wrapper',
      "/bin/bash -c source /home/u/.claude/shell-snapshots/snapshot-bash-1.sh && eval 'npm run dev' \\< /dev/null && pwd -P >| /tmp/claude-ab12-cwd",
      'npm run dev',
    ],
    [
      'quoted quote inside the eval',
      "/bin/bash -c source /root/.claude/shell-snapshots/s.sh && eval 'echo '\\''hi there'\\''' && pwd -P >| /tmp/claude-1-cwd",
      "echo 'hi there'",
    ],
    [
      'zsh wrapper',
      "/bin/zsh -c source /Users/u/.claude/shell-snapshots/snapshot-zsh-9.sh && eval 'sleep 600 &' && pwd -P >| /tmp/x",
      'sleep 600 &',
    ],
    [
      'the wrapper script without its shell (as a transcript may hold it)',
      "source /root/.claude/shell-snapshots/snapshot-bash-1.sh && eval 'python3 -m http.server 8000 &' && pwd -P >| /tmp/claude-1-cwd",
      'python3 -m http.server 8000 &',
    ],
    ['a plain source is left alone', 'source .venv/bin/activate', 'source .venv/bin/activate'],
    ['plain command', 'node server.js --port 3000', 'node server.js --port 3000'],
    ['plain shell -c is left alone', 'bash -lc npm test', 'bash -lc npm test'],
    [
      'snapshot without eval',
      '/bin/bash -c source /x/shell-snapshots/s.sh',
      '/bin/bash -c source /x/shell-snapshots/s.sh',
    ],
    [
      'unterminated quote',
      "/bin/bash -c source /x/shell-snapshots/s.sh && eval 'oops",
      "/bin/bash -c source /x/shell-snapshots/s.sh && eval 'oops",
    ],
    [
      'not a shell',
      "python -c source shell-snapshots/ && eval 'x'",
      "python -c source shell-snapshots/ && eval 'x'",
    ],
    ['empty', '', ''],
  ])('%s', (_name, command, expected) => {
    expect(commandThatMatters(command)).toBe(expected);
  });
});
