// Prints a .cpuprofile's top functions by self time (what each spent itself, its callees excluded), and
// the share of the sampled time outside JavaScript: `npx tsx bench/profile-top.ts <file> [count]`.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, countArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: tsx bench/profile-top.ts <file.cpuprofile> [count]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<string, number>();
let totalUs = 0;
profile.samples.forEach((id, i) => {
  const frame = byId.get(id)!.callFrame;
  const where = frame.url ? `${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}` : '';
  const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
  const us = profile.timeDeltas[i] ?? 0;
  selfUs.set(key, (selfUs.get(key) ?? 0) + us);
  totalUs += us;
});
const busyUs = totalUs - (selfUs.get('(idle)') ?? 0);
process.stdout.write(
  `${(totalUs / 1e6).toFixed(1)} s sampled, ${(busyUs / 1000).toFixed(1)} ms not idle (${((busyUs / totalUs) * 100).toFixed(3)} % of one core)\n`,
);
const top = [...selfUs].filter(([key]) => key !== '(idle)').sort((a, b) => b[1] - a[1]);
for (const [key, us] of top.slice(0, Number(countArg ?? 15)))
  process.stdout.write(
    `${(us / 1000).toFixed(1).padStart(8)} ms  ${((us / busyUs) * 100).toFixed(1).padStart(5)} %  ${key}\n`,
  );
