import type { MonitorEvent } from '../../../shared/model';

/** Runs a listener so that its throw is counted as the monitor's error, never stopping the others. */
export type Guard = (step: string, run: () => void) => void;

/** Who hears the monitor: its events, the end of each run (ticks) and the end of each poll. */
export class MonitorListeners {
  private readonly poll = new Set<(now: number) => void>();
  private readonly event = new Set<(event: MonitorEvent) => void>();
  private readonly tick = new Set<(hadEvents: boolean) => void>();

  constructor(private readonly guard: Guard) {}

  onEvent(listener: (event: MonitorEvent) => void): () => void {
    this.event.add(listener);
    return () => this.event.delete(listener);
  }

  onTick(listener: (hadEvents: boolean) => void): () => void {
    this.tick.add(listener);
    return () => this.tick.delete(listener);
  }

  onPoll(listener: (now: number) => void): () => void {
    this.poll.add(listener);
    return () => this.poll.delete(listener);
  }

  /** One run's events, in order, then the tick. */
  deliver(events: readonly MonitorEvent[]): void {
    for (const e of events) for (const l of this.event) this.guard('event listener', () => l(e));
    const hadEvents = events.length > 0;
    for (const l of this.tick) this.guard('tick listener', () => l(hadEvents));
  }

  polled(now: number): void {
    for (const l of this.poll) this.guard('poll listener', () => l(now));
  }
}
