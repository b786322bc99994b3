import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/**
 * Metric names a PromQL expression reads: what is left once strings, label matchers, ranges and
 * `by (...)`/`on (...)` label lists are removed, and functions (names before a parenthesis) skipped.
 * Enough for the expressions Corral ships; Prometheus itself checks their syntax.
 */
export function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names: string[] = [];
  for (const m of bare.matchAll(/(?<![\w.$])([a-zA-Z_:][\w:]*)(\s*\()?/g)) {
    if (m[2] || KEYWORDS.has(m[1]!.toLowerCase())) continue;
    names.push(m[1]!);
  }
  return names;
}

/** Dashboard expressions with Grafana's variables replaced by values Prometheus accepts. */
export function withGrafanaVariables(expr: string): string {
  return expr.replaceAll('$__rate_interval', '1m').replaceAll('$__range', '5m').replaceAll('$instance', '.*');
}

interface Dashboard {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
  templating: { list: Array<{ query: unknown }> };
}

export function dashboardExprs(): Array<{ title: string; expr: string }> {
  const dashboard = JSON.parse(
    readFileSync(join(resolve(__dirname, '../../deploy'), 'grafana/corral-dashboard.json'), 'utf8'),
  ) as Dashboard;
  return dashboard.panels.flatMap((p) => p.targets.map((t) => ({ title: p.title, expr: t.expr })));
}
