/**
 * What a Corral hook may print, whichever path computed it: nothing, or a note for the model
 * (`{"hookSpecificOutput": {"hookEventName", "additionalContext"}}`). Never a permission decision,
 * rewritten input, a block or a stop (`permissionDecision`, `updatedInput`, `decision`,
 * `continue: false`…): an agent acts on those, and Corral never means to give one. Anything else
 * becomes nothing. Pure.
 */
export function onlyAdditionalContext(text: string): string {
  if (text === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return '';
  }
  const out = (parsed as { hookSpecificOutput?: unknown } | null)?.hookSpecificOutput as
    { hookEventName?: unknown; additionalContext?: unknown } | undefined;
  if (typeof out?.hookEventName !== 'string' || typeof out.additionalContext !== 'string') return '';
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: out.hookEventName, additionalContext: out.additionalContext },
  });
}
