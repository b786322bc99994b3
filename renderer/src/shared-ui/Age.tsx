import { useCorral } from '../store/store-context';
import { formatDuration } from './format';

/**
 * Time since `since`, by the core's clock. It subscribes to the text itself, so a row around it does
 * not render again each second, and it renders only when the text changes.
 */
export function Age({ since }: { since: number }) {
  return <>{useCorral((s) => formatDuration(s.now - since))}</>;
}
