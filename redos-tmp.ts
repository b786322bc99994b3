import { AgentMatcher } from './main/core/analysis/agent-matcher';
import { BUILTIN_SIGNATURES } from './main/core/analysis/signatures';
const m = new AgentMatcher(BUILTIN_SIGNATURES);
for (const unit of ['/.codex/packages/', '/cursor-agent/', 'goose ']) {
for (const n of [10_000, 100_000, 1_000_000]) {
  const arg = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  const t = Date.now();
  m.agentOf({ name: 'x', argv: ['x', arg] });
  m.toolCallOf(['x', arg]);
  console.log(unit, n, Date.now() - t, 'ms');
}}
