import { DarwinSampler } from './darwin/darwin-sampler';
import { LinuxSampler } from './linux/linux-sampler';
import type { ProcessSampler, SamplerOptions } from './process-sampler';

export function createSampler(
  options: SamplerOptions,
  platform: NodeJS.Platform = process.platform,
): ProcessSampler {
  if (platform === 'linux') return new LinuxSampler(options);
  if (platform === 'darwin') return new DarwinSampler(options);
  throw new Error(`Corral has no process sampler for ${platform}; it runs on Linux and macOS`);
}
