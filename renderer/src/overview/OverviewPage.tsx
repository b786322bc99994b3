import { useCallback, useState } from 'react';
import type { GroupView } from '../../../shared/model';
import { StopGroupDialog } from '../stop/StopGroupDialog';
import { TimelineView } from '../timeline/TimelineView';
import { GroupTable } from './GroupTable';
import { HostHeader } from './HostHeader';
import { OverviewToolbar } from './OverviewToolbar';

export function OverviewPage() {
  const [stopping, setStopping] = useState<GroupView | null>(null);
  const closeStop = useCallback(() => setStopping(null), []);
  return (
    <div className="overview-page">
      <section className="overview" aria-label="Overview">
        <HostHeader />
        <OverviewToolbar />
        <div className="group-scroll">
          <GroupTable onStop={setStopping} />
        </div>
      </section>
      <TimelineView />
      {stopping ? <StopGroupDialog group={stopping} onClose={closeStop} /> : null}
    </div>
  );
}
