import type { CorralService } from '../../core/service';

/**
 * The service with its stops counted while they run (every window, tray and notification stop goes
 * through it), so the updater never checks, downloads or restarts in the middle of one.
 */
export function trackingStops(service: CorralService): { service: CorralService; running: () => number } {
  let running = 0;
  const counted = async <T>(stop: () => Promise<T>): Promise<T> => {
    running++;
    try {
      return await stop();
    } finally {
      running--;
    }
  };
  return {
    service: {
      ...service,
      stopGroup: (request, onProgress) => counted(() => service.stopGroup(request, onProgress)),
      stopSession: (request, onProgress) => counted(() => service.stopSession(request, onProgress)),
    },
    running: () => running,
  };
}
