import { useCallback, useRef, useState } from 'react';
import type { GroupView, SessionRef } from '../../../shared/model';
import { HookOfferBanner } from '../hooks/HookOfferBanner';
import { useElementSize } from '../shared-ui/use-element-size';
import { StopAgentOrphansDialog } from '../stop/StopAgentOrphansDialog';
import { StopGroupDialog } from '../stop/StopGroupDialog';
import { StopSessionDialog } from '../stop/StopSessionDialog';
import { useCorral } from '../store/store-context';
import { TimelineView } from '../timeline/TimelineView';
import { GroupTable } from './GroupTable';
import { HostHeader } from './HostHeader';
import { OverviewToolbar } from './OverviewToolbar';

/** Below this width (the menu-bar popover is 420 px) rows go two-line and the timeline is its own screen. */
export const COMPACT_WIDTH = 720;
/** Below this width a selected group's timeline replaces the list instead of sharing the window. */
export const SPLIT_WIDTH = 1100;
const FALLBACK = { width: 1280, height: 800 };

export function OverviewPage() {
  const [stopping, setStopping] = useState<GroupView | null>(null);
  const [stoppingAgent, setStoppingAgent] = useState<{ name: string; groups: GroupView[] } | null>(null);
  const closeStop = useCallback(() => setStopping(null), []);
  const closeAgentStop = useCallback(() => setStoppingAgent(null), []);
  const [stoppingSession, setStoppingSession] = useState<{
    session: SessionRef;
    leftovers: GroupView[];
  } | null>(null);
  const closeSessionStop = useCallback(() => setStoppingSession(null), []);
  const onStopSession = useCallback(
    (session: SessionRef, leftovers: GroupView[]) => setStoppingSession({ session, leftovers }),
    [],
  );
  const onStopAgentOrphans = useCallback(
    (name: string, groups: GroupView[]) => setStoppingAgent({ name, groups }),
    [],
  );
  const selected = useCorral((s) => s.selectedGroupId);
  const selectGroup = useCorral((s) => s.selectGroup);
  const pageRef = useRef<HTMLDivElement>(null);
  const { width } = useElementSize(pageRef, FALLBACK);
  const compact = width < COMPACT_WIDTH;
  const layout = selected === null ? 'list' : width < SPLIT_WIDTH ? 'timeline-screen' : 'split';

  return (
    <div ref={pageRef} className={`overview-page layout-${layout}`} data-layout={layout}>
      {layout === 'timeline-screen' ? null : (
        <section className="overview" aria-label="Overview">
          <HostHeader />
          <HookOfferBanner />
          <OverviewToolbar compact={compact} />
          <div className="group-scroll">
            <GroupTable
              compact={compact || layout === 'split'}
              onStop={setStopping}
              onStopAgentOrphans={onStopAgentOrphans}
              onStopSession={onStopSession}
            />
          </div>
        </section>
      )}
      {layout === 'list' ? null : (
        <div className="timeline-pane">
          {layout === 'timeline-screen' ? (
            <button type="button" className="back" onClick={() => selectGroup(null)}>
              ← Back to groups
            </button>
          ) : null}
          <TimelineView compact={compact} onStop={setStopping} />
        </div>
      )}
      {stopping ? <StopGroupDialog group={stopping} onClose={closeStop} /> : null}
      {stoppingAgent ? (
        <StopAgentOrphansDialog
          agentName={stoppingAgent.name}
          groups={stoppingAgent.groups}
          onClose={closeAgentStop}
        />
      ) : null}
      {stoppingSession ? (
        <StopSessionDialog
          session={stoppingSession.session}
          leftovers={stoppingSession.leftovers}
          onClose={closeSessionStop}
        />
      ) : null}
    </div>
  );
}
