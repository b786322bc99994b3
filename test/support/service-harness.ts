import type { MonitorEvent, MonitorEventType, Settings } from '../../shared/model';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { createCorralService, type RunningService } from '../../main/core/create-service';
import { tempDirForTest } from './spawned-groups';
import { describeEvents, waitFor } from './wait-for';

export interface Harness {
  running: RunningService;
  events: MonitorEvent[];
  dataDir: string;
  next(
    type: MonitorEventType,
    match: (e: MonitorEvent) => boolean,
    timeoutMs?: number,
  ): Promise<MonitorEvent>;
  stop(): Promise<void>;
}

/**
 * A real CorralService (monitor, store, teardown) with test-sized settings. Without a `dataDir`, it
 * makes one, removed after the test.
 */
export function startHarness(
  overrides: Partial<Settings> = {},
  dataDir = tempDirForTest('corral-data-'),
): Harness {
  const settings: Settings = { ...DEFAULT_SETTINGS, pollIntervalMs: 200, ...overrides };
  const running = createCorralService({
    config: { path: '(test)', settings, errors: [] },
    dataDir,
    persistSettings: false,
    watchIntervalMs: 50,
    onError: (step, err) => {
      throw new Error(`monitor step ${step} failed: ${String(err)}`);
    },
  });
  const events: MonitorEvent[] = [];
  running.service.onEvent((e) => events.push(e));
  return {
    running,
    events,
    dataDir,
    next: (type, match, timeoutMs = 15_000) =>
      waitFor(`a ${type} event`, () => events.find((e) => e.type === type && match(e)), {
        timeoutMs,
        explain: () => describeEvents(events),
      }),
    stop: () => running.stop(),
  };
}
