// The machine's load average as each step of a run starts: a bench figure means little without the
// conditions it was taken in, and the 1-minute load average is the one the whole machine reports.
import { loadavg } from 'node:os';

export interface PhaseLoad {
  /** Seconds since the run started. */
  atSeconds: number;
  step: string;
  /** 1-minute load average, all processes on the machine (not only the bench's namespace). */
  load1: number;
}

export class PhaseLoads {
  readonly steps: PhaseLoad[] = [];

  note(atSeconds: number, step: string): void {
    this.steps.push({ atSeconds, step, load1: loadavg()[0] ?? 0 });
  }

  /** One Markdown line: each step's load, in order; indented sub-steps (the shipped scenarios' parts) left out. */
  markdownLine(cores: number): string {
    const shown = this.steps.filter((s) => !s.step.startsWith(' '));
    const parts = shown.map(
      (s) => `${s.load1.toFixed(1)} at ${s.atSeconds.toFixed(0)} s (${shortStep(s.step)})`,
    );
    return `Load average (1 min, ${cores} cores) as each step started: ${parts.join('; ')}.`;
  }
}

function shortStep(step: string): string {
  const words = step.split(/[:,(]/)[0]!.trim();
  return words.length > 48 ? `${words.slice(0, 47)}…` : words;
}
