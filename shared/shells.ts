// The one list of shells Corral knows: a tool call's wrapper, a hook's launcher, a person's prompt.

export const SHELL_NAMES: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'fish',
  'tcsh',
  'csh',
  'nu',
  'elvish',
  'xonsh',
]);

/** Whether an executable (a name, or a path: its last part) is a shell; a login shell's leading `-` is ignored. */
export function isShellName(executable: string): boolean {
  const name = executable.slice(executable.lastIndexOf('/') + 1).replace(/^-/, '');
  return SHELL_NAMES.has(name);
}
