import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codexTomlServers } from '../../main/core/provenance/codex-toml-servers';
import { claudeJsonServers, jsonMcpServers } from '../../main/core/provenance/mcp-config-entries';
import { McpConfigs } from '../../main/core/provenance/mcp-configs';
import { matchConfiguredServer } from '../../main/core/provenance/match-mcp-server';
import { classifyRole } from '../../main/core/provenance/mcp-server';
import { removeDir } from '../support/spawned-groups';

// What `claude mcp add -s user|local|project` (Claude Code 2.1.197) and `codex mcp add` (Codex CLI
// 0.171.0) wrote when run here with a throwaway HOME.
const CLAUDE_JSON = {
  numStartups: 1,
  mcpServers: { userweather: { type: 'stdio', command: 'node', args: ['/opt/w.js', '--stdio'], env: {} } },
  projects: {
    '/tmp/cc-mcp/proj': {
      allowedTools: [],
      mcpServers: { localweather: { type: 'stdio', command: 'uvx', args: ['weather-mcp'], env: {} } },
    },
  },
};
const MCP_JSON = {
  mcpServers: { projweather: { type: 'stdio', command: 'npx', args: ['-y', '@acme/weather'], env: {} } },
};
const CODEX_TOML = `[mcp_servers.weather]
command = "node"
args = ["/opt/w.js", "--stdio"]

[mcp_servers."my.files"]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", '/srv/it "q"']

[mcp_servers."my.files".env]
A = "b"
`;

describe('reading MCP configurations', () => {
  it('Claude Code: local scope for the project, then user scope (~/.claude.json)', () => {
    expect(claudeJsonServers(CLAUDE_JSON, '/tmp/cc-mcp/proj')).toEqual([
      { name: 'localweather', command: 'uvx', args: ['weather-mcp'] },
      { name: 'userweather', command: 'node', args: ['/opt/w.js', '--stdio'] },
    ]);
    expect(claudeJsonServers(CLAUDE_JSON, '/elsewhere').map((e) => e.name)).toEqual(['userweather']);
    expect(jsonMcpServers(MCP_JSON.mcpServers)).toEqual([
      { name: 'projweather', command: 'npx', args: ['-y', '@acme/weather'] },
    ]);
  });

  it('leaves out remote servers and what is not of the shape', () => {
    expect(
      jsonMcpServers({
        remote: { type: 'http', url: 'https://mcp.example.com/mcp' },
        nocommand: { args: ['x'] },
        badargs: { command: 'x', args: 'y' },
        nil: null,
      }),
    ).toEqual([{ name: 'badargs', command: 'x', args: [] }]);
    expect(jsonMcpServers([1, 2])).toEqual([]);
    expect(claudeJsonServers('nonsense', '/x')).toEqual([]);
  });

  it('Codex: [mcp_servers.<name>] tables as `codex mcp add` writes them, quoted names and literal strings', () => {
    expect(codexTomlServers(CODEX_TOML)).toEqual([
      { name: 'weather', command: 'node', args: ['/opt/w.js', '--stdio'] },
      {
        name: 'my.files',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/it "q"'],
      },
    ]);
  });

  it.each<[string, string, { name: string; command: string; args: string[] }[]]>([
    [
      'other keys and tables stepped over, comments, multi-line arrays, escapes',
      `model = "gpt-5" # the model
approval_policy = "never"
[model_providers.fake]
base_url = "http://x"
retries = 3
enabled = true
headers = { a = "}", b = 2 }
[mcp_servers.git]
command = "uvx" # git server
args = [
  "mcp-server-git",  # trailing comment
  "--repository", "C:\\\\repo\\u00e9",
]
startup_timeout_sec = 20
`,
      [{ name: 'git', command: 'uvx', args: ['mcp-server-git', '--repository', 'C:\\repoé'] }],
    ],
    [
      'dotted keys at the top level',
      'mcp_servers.time.command = "uvx"\nmcp_servers.time.args = ["mcp-server-time"]\n',
      [{ name: 'time', command: 'uvx', args: ['mcp-server-time'] }],
    ],
    ['a remote server (url, no command) is left out', '[mcp_servers.remote]\nurl = "https://x/mcp"\n', []],
    [
      'text it cannot follow ends the reading, keeping what came before',
      '[mcp_servers.a]\ncommand = "a"\n[mcp_servers.b]\ncommand = = broken\n',
      [{ name: 'a', command: 'a', args: [] }],
    ],
    ['an array of tables is not a server', '[[mcp_servers]]\ncommand = "x"\n', []],
    ['empty', '', []],
  ])('%s', (_what, text, expected) => {
    expect(codexTomlServers(text)).toEqual(expected);
  });
});

describe('matchConfiguredServer', () => {
  const entries = [
    { name: 'localweather', command: 'uvx', args: ['weather-mcp'] },
    { name: 'weather', command: 'node', args: ['/opt/w.js', '--stdio'] },
    { name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv'] },
    { name: 'tool', command: '/opt/bin/tool-server', args: [] },
  ];
  it.each<[string, string[], string | null]>([
    [
      'command resolved through PATH, as Codex 0.171 showed it',
      ['/usr/bin/node', '/opt/w.js', '--stdio'],
      'weather',
    ],
    ['exact', ['uvx', 'weather-mcp'], 'localweather'],
    [
      'a script under its interpreter',
      ['/usr/bin/python3', '/root/.local/bin/uvx', 'weather-mcp'],
      'localweather',
    ],
    ['npx as npm titles itself', ['npm', 'exec', '@modelcontextprotocol/server-filesystem', '/srv'], 'files'],
    [
      'npx under node',
      ['node', '/usr/bin/npx', '-y', '@modelcontextprotocol/server-filesystem', '/srv'],
      'files',
    ],
    ['an absolute command', ['/opt/bin/tool-server'], 'tool'],
    ['other args', ['/usr/bin/node', '/opt/w.js'], null],
    ['extra args', ['uvx', 'weather-mcp', '--debug'], null],
    ['another program', ['python3', '-m', 'http.server'], null],
    ['npm exec of another package', ['npm', 'exec', '@playwright/mcp'], null],
    ['empty argv (zombie, another user)', [], null],
  ])('%s', (_what, argv, expected) => {
    expect(matchConfiguredServer(argv, entries)).toBe(expected);
  });
  it('the first entry wins (the agent’s precedence)', () => {
    const twice = [
      { name: 'local', command: 'uvx', args: ['a'] },
      { name: 'user', command: 'uvx', args: ['a'] },
    ];
    expect(matchConfiguredServer(['uvx', 'a'], twice)).toBe('local');
  });
});

describe('classifyRole with a configured server', () => {
  const base = { isAgent: false, attributed: true, toolCallMarked: false, ownSession: false };
  it.each<[string, Parameters<typeof classifyRole>[0], ReturnType<typeof classifyRole>]>([
    [
      'an agent’s non-shell child its configuration names',
      {
        ...base,
        argv: ['node', '/opt/w.js'],
        topChild: {
          argv: ['node', '/opt/w.js'],
          ownSession: false,
          toolCallShell: false,
          configured: 'weather',
        },
      },
      { role: 'mcp-server', mcpServer: 'weather' },
    ],
    [
      'the configured name wins over the one its command line suggests',
      {
        ...base,
        argv: ['npx', 'mcp-server-git'],
        topChild: {
          argv: ['npx', 'mcp-server-git'],
          ownSession: false,
          toolCallShell: false,
          configured: 'repo',
        },
      },
      { role: 'mcp-server', mcpServer: 'repo' },
    ],
    [
      'a tool call stays a tool call even if its command matches',
      { ...base, toolCallMarked: true, argv: ['node', '/opt/w.js'], topChild: null, configured: 'weather' },
      { role: 'tool-call' },
    ],
    [
      'an orphan matched through its own environment and cwd',
      { ...base, argv: ['node', '/opt/w.js'], topChild: null, configured: 'weather' },
      { role: 'mcp-server', mcpServer: 'weather' },
    ],
    [
      'an orphan in a session of its own is a tool call’s',
      { ...base, ownSession: true, argv: ['node', '/opt/w.js'], topChild: null, configured: 'weather' },
      { role: 'tool-call' },
    ],
  ])('%s', (_what, facts, expected) => {
    expect(classifyRole(facts)).toEqual(expected);
  });
});

describe('McpConfigs (files)', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach(removeDir));

  it('reads each agent’s files, then only re-reads after the recheck interval and a changed mtime', () => {
    const home = mkdtempSync(join(tmpdir(), 'corral-mcp-home-'));
    const project = mkdtempSync(join(tmpdir(), 'corral-mcp-project-'));
    dirs.push(home, project);
    writeFileSync(join(home, '.claude.json'), JSON.stringify(CLAUDE_JSON));
    writeFileSync(join(project, '.mcp.json'), JSON.stringify(MCP_JSON));
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), CODEX_TOML);
    mkdirSync(join(home, '.gemini'));
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({
        mcpServers: { pythonTools: { command: 'python', args: ['-m', 'my_mcp'], cwd: './x' } },
      }),
    );
    let now = 0;
    const configs = new McpConfigs(() => now, 10_000);
    const names = (agent: string, extra: object = {}) =>
      configs.serversOf({ agent, home, projectDir: project, ...extra }).map((e) => e.name);
    expect(names('claude-code')).toEqual(['projweather', 'userweather']);
    expect(names('codex')).toEqual(['weather', 'my.files']);
    expect(names('gemini-cli')).toEqual(['pythonTools']);
    expect(names('aider')).toEqual([]);
    expect(names('claude-code', { claudeConfigDir: join(home, 'nowhere') })).toEqual(['projweather']);

    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({ mcpServers: MCP_JSON.mcpServers, x: 'longer' }),
    );
    now = 9_999;
    expect(names('claude-code')).toEqual(['projweather', 'userweather']); // not looked at yet
    now = 10_000;
    expect(names('claude-code')).toEqual(['projweather', 'projweather']);
    writeFileSync(join(home, '.claude.json'), '{ not json');
    now = 20_000;
    expect(names('claude-code')).toEqual(['projweather']);
  });
});
