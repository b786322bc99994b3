import type { CommandDeclaration, CommandSpec, FlagSpec } from './option-spec';

const written = (name: string, flag: FlagSpec): string =>
  flag.type === 'string' ? `--${name} ${flag.value}` : `--${name}`;

/**
 * `corral kill <group-id> | --port N [--any-owner] | --session ID [--grace-ms N] …`: a command's usage
 * line, made from its declaration so that it names every flag help lists, in the order declared. The
 * ways of naming one thing (`oneOf`) come first, joined by `|`; a flag declared `with` another follows
 * it; a flag that is a call of its own (`form`) comes last.
 */
export function usageLine(name: string, spec: CommandDeclaration): string {
  const flags = Object.entries(spec.flags);
  const oneOf = spec.oneOf ?? [];
  const placed = (n: string, f: FlagSpec) =>
    oneOf.includes(n) || f.with !== undefined || f.form !== undefined;
  const companions = (of: string) =>
    flags.filter(([, f]) => f.with === of).map(([n, f]) => ` [${written(n, f)}]`);
  const way = (n: string) => {
    const flag = spec.flags[n];
    return flag === undefined ? n : `${written(n, flag)}${companions(n).join('')}`;
  };
  const required = oneOf.some((n) => spec.flags[n] === undefined);
  const parts = [`corral ${name}`];
  if (spec.actions) parts.push(spec.actions.join('|'));
  for (const [p] of spec.positionals ?? []) if (!oneOf.includes(p)) parts.push(p);
  if (oneOf.length > 0) parts.push(required ? oneOf.map(way).join(' | ') : `[${oneOf.map(way).join(' | ')}]`);
  for (const [n, f] of flags) if (!placed(n, f)) parts.push(`[${written(n, f)}]`);
  for (const [n, f] of flags)
    if (f.form !== undefined)
      parts.push(`| ${[written(n, f), ...f.form.map((o) => `[${written(o, spec.flags[o]!)}]`)].join(' ')}`);
  return parts.join(' ');
}

/** Each declaration with its usage line. */
export function withUsage<T extends Record<string, CommandDeclaration>>(
  declarations: T,
): { [K in keyof T]: T[K] & CommandSpec } {
  return Object.fromEntries(
    Object.entries(declarations).map(([name, spec]) => [name, { ...spec, usage: usageLine(name, spec) }]),
  ) as { [K in keyof T]: T[K] & CommandSpec };
}
