export function formatCpu(percent: number | null): string {
  return percent === null ? 'CPU ?' : `${Math.round(percent)}% CPU`;
}

/** The part of a command line a person recognises, bounded for a menu item. */
export function shortCommand(command: string, max = 40): string {
  const oneLine = command.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
