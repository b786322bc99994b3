import { homedir } from 'node:os';
import { isAbsolute, normalize, sep } from 'node:path';

/**
 * Folders macOS guards with a privacy prompt (TCC: Desktop, Documents, Downloads, iCloud Drive, other
 * apps' containers, removable and network volumes). An app that stats or reads anything inside asks the
 * user first, and again for every build signed ad hoc (TCC keys its answer on the code signature): a
 * watchdog reading a project's `.mcp.json` or `.git` there would pop a prompt out of nowhere. The app
 * reads none of them on macOS; what would have come from there (a project, an MCP server's config) stays
 * not known. The CLI reads them with the permission of the terminal it runs in, as any command does.
 */
const PROTECTED_IN_HOME = [
  'Desktop',
  'Documents',
  'Downloads',
  'Library/Mobile Documents',
  'Library/Containers',
];
const PROTECTED_ROOTS = ['/Volumes'];

/** Pure: whether `path` lies in one of those folders of `home`, for the app on `platform`. */
export function inMacPrivacyFolder(
  path: string,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
  inApp: boolean = process.versions.electron !== undefined,
): boolean {
  if (platform !== 'darwin' || !inApp || !isAbsolute(path)) return false;
  const target = normalize(path);
  const under = (dir: string): boolean => target === dir || target.startsWith(dir + sep);
  return PROTECTED_IN_HOME.some((name) => under(normalize(`${home}/${name}`))) || PROTECTED_ROOTS.some(under);
}
