import { describe, expect, it } from 'vitest';
import { classifyRole, mcpServerName, type RoleFacts } from '../../main/core/provenance/mcp-server';

describe('mcpServerName', () => {
  it.each([
    ['npx -y @modelcontextprotocol/server-filesystem /srv', 'filesystem'],
    ['node /root/.npm/_npx/1a2b/node_modules/.bin/mcp-server-filesystem /srv', 'filesystem'],
    ['node /usr/lib/node_modules/@modelcontextprotocol/server-memory/dist/index.js', 'memory'],
    ['uvx mcp-server-git --repository .', 'git'],
    ['npx @playwright/mcp@latest', 'playwright'],
    ['python3 -m mcp_server_time', 'time'],
    ['npx -y @upstash/context7-mcp', 'context7'],
    ['/usr/local/bin/github-mcp-server stdio', 'github'],
    ['docker run -i --rm mcp/fetch', 'fetch'],
    ['node server.js', null],
    ['rg --files --hidden', null],
    ['npm run dev', null],
    ['bash -c echo mcp', null],
    ['python3 -m http.server 8000', null],
  ])('%s → %s', (command, name) => {
    expect(mcpServerName(command.split(' '))).toBe(name);
  });
});

const facts = (over: Partial<RoleFacts>): RoleFacts => ({
  isAgent: false,
  attributed: true,
  topChild: null,
  toolCallMarked: false,
  argv: ['sleep', '600'],
  ownSession: false,
  ...over,
});
const child = (argv: string, ownSession = false, toolCallShell = false) => ({
  argv: argv.split(' '),
  ownSession,
  toolCallShell,
});

describe('classifyRole', () => {
  it.each<[string, Partial<RoleFacts>, ReturnType<typeof classifyRole>]>([
    ['the agent itself', { isAgent: true }, { role: 'agent' }],
    ['a process no agent owns', { attributed: false }, { role: null }],
    ['a process carrying a tool-call id', { toolCallMarked: true }, { role: 'tool-call' }],
    [
      "a detached shell child of the agent (every agent's tool calls)",
      { topChild: child('/bin/bash -c npm run dev', true) },
      { role: 'tool-call' },
    ],
    [
      "Claude's tool-call wrapper, matched by its pattern",
      { topChild: child('/bin/bash -c source x', false, true) },
      { role: 'tool-call' },
    ],
    [
      'a shell child left in the agent session',
      { topChild: child('/bin/sh -c make test') },
      { role: 'tool-call' },
    ],
    [
      'a stdio MCP server under the agent',
      { topChild: child('npx -y @modelcontextprotocol/server-filesystem /srv') },
      { role: 'mcp-server', mcpServer: 'filesystem' },
    ],
    [
      "the node process under an MCP server's npx",
      {
        topChild: child('npm exec @playwright/mcp@latest'),
        argv: 'node /root/.npm/_npx/9/node_modules/.bin/mcp-server-playwright'.split(' '),
      },
      { role: 'mcp-server', mcpServer: 'playwright' },
    ],
    ['ripgrep the agent runs for itself', { topChild: child('rg --files') }, { role: null }],
    [
      'an orphaned MCP server still in the dead agent session',
      { argv: 'uvx mcp-server-git'.split(' ') },
      { role: 'mcp-server', mcpServer: 'git' },
    ],
    [
      'an orphaned process in a tool call session',
      { argv: 'uvx mcp-server-git'.split(' '), ownSession: true },
      { role: 'tool-call' },
    ],
    [
      'an orphaned leftover of a tool call',
      { argv: ['python3', '-m', 'http.server'] },
      { role: 'tool-call' },
    ],
  ])('%s', (_what, over, expected) => {
    expect(classifyRole(facts(over))).toEqual(expected);
  });
});
