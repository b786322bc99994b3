/**
 * When a step that reads only what Monitor.viewVersion counts needs to run again: when the version moved
 * since it last ran, or something else it reads is pending. A run at the same version would change nothing.
 */
export class VersionGate {
  private ranAt = -1;

  due(version: number, pending: boolean): boolean {
    if (version === this.ranAt && !pending) return false;
    this.ranAt = version;
    return true;
  }
}
