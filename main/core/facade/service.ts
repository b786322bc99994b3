// What a long-lived command (`watch`, `serve`, `metrics`) and every command's start use of the core:
// the config, the running CorralService, and the refusals of the data directory.
export { loadConfig, type LoadedConfig } from '../config/load-config';
export { createCorralService, type RunningService } from '../create-service';
export type { CorralService } from '../service';
export { releaseStartUpPagesLater } from '../release-start-up-pages';
export { DataDirRefused } from '../storage/own-data-dir';
export { parseGroupId } from '../analysis/group-id';
export { userDataDir } from './user-data';
