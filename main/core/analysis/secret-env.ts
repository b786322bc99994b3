/**
 * Environment variables Corral never reads from another process, whatever a signature names: secrets an
 * agent hands its tool calls (Claude Code 2.1.3xx's CLAUDE_CODE_MESSAGING_TOKEN, which authenticates to
 * the agent's messaging socket) and the credentials users export (…_API_KEY, …_TOKEN). Never read means
 * never shown, stored or logged: only the variables a matcher asks for leave /proc.
 */
export const SECRET_ENV: readonly string[] = ['CLAUDE_CODE_MESSAGING_TOKEN'];

const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|CREDENTIALS?)$/i;

export function isSecretEnv(name: string): boolean {
  return SECRET_ENV.includes(name) || SECRET_NAME.test(name);
}
