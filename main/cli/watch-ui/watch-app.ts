import type * as InkModule from 'ink';
import {
  createElement as h,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { DEFAULT_KEEP_MS, keptLabel } from '../../../shared/words/keep-duration';
import type { GroupView } from '../../../shared/model';
// The UI's own words (shared/): the same story.
import { stopModes } from '../../../shared/stop-targets';
import { timelineSummary } from '../../../shared/words/timeline-story';
import type { CorralService } from '../../core/facade/service';
import { groupTableLines } from '../group-table';
import { renderTeardown } from '../commands/kill';
import type { WatchFeed } from './watch-feed';
import { confirmLines, detailLines } from './watch-lines';
import { keepSelection, matchesSearch, scrollTop, SORTS } from './watch-model';

export interface WatchAppProps {
  service: Pick<CorralService, 'stopGroup' | 'timeline' | 'keepGroup' | 'unkeepGroup'>;
  /** Snapshots and events (watch-feed.ts). */
  feed: WatchFeed;
  graceMs: number;
  all: boolean;
  /** $COLUMNS / $LINES when set: they win over the terminal's size, as for ps. */
  columns: number | null;
  rows: number | null;
}

type Mode = 'list' | 'detail' | 'confirm' | 'search';

/** The fewest recent events shown; more when the list leaves the rows. */
const EVENT_LINES = 3;

/** The list's keys, from the most words to the fewest: the first that fits is shown, `q quit` always. */
const LIST_KEYS = [
  '↑↓ select · Enter processes and story · k stop · K keep · / search · s sort · q quit',
  '↑↓ select · Enter details · k stop · K keep · / search · s sort · q quit',
  '↑↓ · Enter · k stop · K keep · / search · s sort · q quit',
  '↑↓ Enter k K / s · q quit',
];

function keysLine(mode: Mode, width: number): string {
  if (mode === 'search') return 'Type a command or :port · Enter apply · Esc cancel';
  if (mode === 'confirm') return 'y stop · n cancel';
  if (mode === 'detail') return 'Enter/Esc back · k stop · K keep · q quit';
  return LIST_KEYS.find((k) => k.length < width) ?? LIST_KEYS[LIST_KEYS.length - 1]!;
}

/** The terminal's size, following resizes; $COLUMNS and $LINES win when set. */
function useSizeWith(
  useStdout: typeof InkModule.useStdout,
  columns: number | null,
  rows: number | null,
): { width: number; height: number } {
  const { stdout } = useStdout();
  const read = () => ({ width: columns ?? stdout.columns ?? 80, height: rows ?? stdout.rows ?? 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  });
  return size;
}

/**
 * `corral watch` on a terminal: an htop-like list of agents' groups under their sessions. ↑/↓
 * select, Enter shows a group's processes and story, `k` stops it after the same confirmation list
 * as the UI's, `K` keeps it (or lets a kept one go), `/` searches by command or `:port`, `s` changes
 * the sort, `q` quits.
 */
export function createWatchApp(ink: typeof InkModule) {
  const { Box, Text, useApp, useInput, useStdout } = ink;
  return function WatchApp({ service, feed, graceMs, all, columns, rows }: WatchAppProps) {
    const { exit } = useApp();
    const { width, height } = useSizeWith(useStdout, columns, rows);
    const { snapshot, events } = useSyncExternalStore(feed.subscribe, feed.get);
    const [mode, setModeState] = useState<Mode>('list');
    // Keys typed faster than a render (a paste, tmux send-keys) must see the mode the last key set.
    const modeNow = useRef<Mode>('list');
    const setMode = (m: Mode) => {
      modeNow.current = m;
      setModeState(m);
    };
    const [selected, setSelected] = useState<string | null>(null);
    const [index, setIndex] = useState(0);
    const [top, setTop] = useState(0);
    const [query, setQuery] = useState('');
    const [draft, setDraftState] = useState('');
    const draftNow = useRef('');
    const setDraft = (d: string) => {
      draftNow.current = d;
      setDraftState(d);
    };
    const [sort, setSort] = useState(0);
    const [message, setMessage] = useState<string[]>([]);
    const [story, setStory] = useState<string | null>(null);
    /** The group as it was when `k` was pressed: the list confirmed is the list shown. */
    const [confirming, setConfirming] = useState<GroupView | null>(null);
    const [stopping, setStopping] = useState(false);

    const term = { colour: false, width: width - 2, height };
    const groups = useMemo(
      () => (snapshot?.groups ?? []).filter((g) => (all || g.agent !== null) && matchesSearch(g, query)),
      [snapshot, all, query],
    );
    const lines = useMemo(
      () =>
        groupTableLines(groups, snapshot?.sampledAt ?? Date.now(), term, {
          compare: SORTS[sort]!.compare,
          processes: false,
        }),
      // eslint-disable-next-line react-hooks/exhaustive-deps
      [groups, snapshot, sort, width],
    );
    const ids = lines.filter((l) => l.kind === 'group').map((l) => l.groupId!);
    const current = keepSelection(ids, selected, index);
    const group = groups.find((g) => g.id === current) ?? null;

    const select = (id: string | null) => {
      setSelected(id);
      if (id !== null) setIndex(ids.indexOf(id));
    };
    const move = (by: number) => {
      if (ids.length === 0) return;
      const at = Math.min(ids.length - 1, Math.max(0, (current === null ? 0 : ids.indexOf(current)) + by));
      select(ids[at]!);
    };
    const openDetail = () => {
      if (!group) return;
      setMode('detail');
      setStory(null);
      service.timeline(group.id).then(
        (timeline) => setStory(timeline ? timelineSummary(timeline, Date.now()) : 'No story recorded.'),
        (err: unknown) => setStory(`No story: ${String(err)}`),
      );
    };
    const stop = (target: GroupView) => {
      setStopping(true);
      const orphansOnly = stopModes(target)[0] === 'orphans-only';
      service.stopGroup({ groupId: target.id, orphansOnly }).then(
        (result) => {
          setMessage(renderTeardown(result, { colour: false, width: width, height }).split('\n'));
          setStopping(false);
          setConfirming(null);
          setMode('list');
        },
        (err: unknown) => {
          setMessage([`Not stopped: ${err instanceof Error ? err.message : String(err)}`]);
          setStopping(false);
          setConfirming(null);
          setMode('list');
        },
      );
    };

    /** `K`: keep the group for the default time (as `corral keep`), or end a keep in force. */
    const toggleKeep = (target: GroupView) => {
      const request = target.kept
        ? service.unkeepGroup(target.id)
        : service.keepGroup({ groupId: target.id, forMs: DEFAULT_KEEP_MS });
      request.then(
        (result) =>
          setMessage([
            result.kept
              ? `Kept group ${target.pgid} (${keptLabel(result.kept.until, Date.now())}): no notices, no policy stops, not counted as a leak. K again lets it go.`
              : `Group ${target.pgid} is no longer kept.`,
          ]),
        (err: unknown) => setMessage([`Not kept: ${err instanceof Error ? err.message : String(err)}`]),
      );
    };

    /** Text typed after `/`; keys typed faster than a read (a paste) may carry the Enter with them. */
    const typeInSearch = (text: string) => {
      const enter = text.search(/[\r\n]/);
      const typed = (enter < 0 ? text : text.slice(0, enter)).replace(/\p{Cc}/gu, '');
      setDraft(draftNow.current + typed);
      if (enter >= 0) applySearch();
    };
    /** A search applied selects its first match, at the top of the list. */
    const applySearch = () => {
      setQuery(draftNow.current);
      setSelected(null);
      setIndex(0);
      setTop(0);
      setMode('list');
    };

    const onKey = (input: string, key: InkModule.Key): void => {
      const mode = modeNow.current;
      // Keys typed faster than a read arrive as one string ("sq"): each is a command of its own.
      if (mode !== 'search' && input.length > 1 && !input.startsWith('/') && !key.ctrl && !key.meta) {
        for (const c of input) onKey(c, { ...key, return: c === '\r' });
        return;
      }
      if (mode === 'search') {
        if (key.return) applySearch();
        else if (key.escape) setMode('list');
        else if (key.backspace || key.delete) setDraft(draftNow.current.slice(0, -1));
        else if (input && !key.ctrl && !key.meta) typeInSearch(input);
        return;
      }
      if (mode === 'confirm') {
        if (stopping) return;
        if ((input === 'y' || key.return) && confirming) stop(confirming);
        else if (input === 'n' || key.escape || input === 'q') {
          setConfirming(null);
          setMode('list');
        }
        return;
      }
      if (input === 'q') {
        exit();
        return;
      }
      if (key.escape) {
        if (mode === 'detail') setMode('list');
        else if (query !== '') setQuery('');
        setMessage([]);
        return;
      }
      if (key.upArrow) move(-1);
      else if (key.downArrow) move(1);
      else if (key.pageUp) move(-10);
      else if (key.pageDown) move(10);
      else if (key.return) {
        if (mode === 'detail') setMode('list');
        else openDetail();
      } else if (input === 'k' && group) {
        setConfirming(group);
        setMessage([]);
        setMode('confirm');
      } else if (input === 'K' && group) {
        toggleKeep(group);
      } else if (input.startsWith('/')) {
        setDraft('');
        setMode('search');
        typeInSearch(input.slice(1));
      } else if (input === 's') setSort((s) => (s + 1) % SORTS.length);
    };
    useInput(onKey);

    const flagged = groups.filter((g) => g.flags.length > 0).length;
    const header = [
      `corral watch — ${groups.length} group${groups.length === 1 ? '' : 's'}, ${flagged} flagged`,
      `sort: ${SORTS[sort]!.name}`,
      query ? `search: ${query}` : null,
    ]
      .filter(Boolean)
      .join(' · ');
    const keys = keysLine(mode, width);

    const out: ReactNode[] = [
      h(Text, { key: 'header', bold: true, wrap: 'truncate' }, header),
      h(Text, { key: 'keys', dimColor: true, wrap: 'truncate' }, keys),
    ];
    // Every frame is exactly `height - 1` rows (the root Box below), each element one row: a frame
    // never scrolls the terminal, so the next one erases all of it and no header is left stacked.
    const bottom: ReactNode[] = [];
    if (mode === 'search') bottom.push(h(Text, { key: 'search', wrap: 'truncate' }, `/${draft}█`));
    // A long stop report keeps room for the header, the keys and three rows of the list.
    const messageRoom = Math.max(1, height - 1 - out.length - bottom.length - 4);
    for (const [i, m] of message.slice(0, messageRoom).entries())
      bottom.push(h(Text, { key: `m${i}`, wrap: 'truncate', color: 'green' }, m));
    // The events take the rows the list does not need (the table's header and lines), at least three.
    const listNeeds = snapshot && ids.length > 0 ? lines.length : 1;
    const eventRoom = height - 1 - out.length - bottom.length - listNeeds - 1;
    const recent = events.slice(-Math.max(EVENT_LINES, eventRoom));
    if (mode === 'list' && recent.length > 0) {
      bottom.push(h(Text, { key: 'ev', dimColor: true }, 'Recent events:'));
      for (const [i, e] of recent.entries())
        bottom.push(h(Text, { key: `e${i}`, dimColor: true, wrap: 'truncate' }, e));
    }
    const room = Math.max(3, height - out.length - bottom.length - 1);

    if (mode === 'confirm' && confirming) {
      out.push(...confirmLines(Text, confirming, graceMs, width, stopping));
    } else if (mode === 'detail' && group) {
      out.push(
        ...detailLines(Text, group, groups, snapshot?.sampledAt ?? Date.now(), term, story).slice(0, room),
      );
    } else if (!snapshot) {
      out.push(h(Text, { key: 'wait' }, 'Looking at the process table…'));
    } else if (ids.length === 0) {
      out.push(
        h(
          Text,
          { key: 'none' },
          query
            ? `No group matches “${query}” (Esc clears the search).`
            : all
              ? 'No process groups.'
              : 'No agent process groups. (--all shows every group.)',
        ),
      );
    } else {
      const [headerLine, ...body] = lines;
      const at = body.findIndex((l) => l.groupId === current && l.kind === 'group');
      const first = scrollTop(Math.max(0, at), top, room - 1, body.length);
      if (first !== top) setTimeout(() => setTop(first), 0);
      out.push(h(Text, { key: 'th', bold: true, wrap: 'truncate' }, `  ${headerLine!.text}`));
      body.slice(first, first + room - 1).forEach((l, i) => {
        const isSelected = l.kind === 'group' && l.groupId === current;
        const critical =
          l.kind === 'group' && groups.find((g) => g.id === l.groupId)?.flags.includes('runaway');
        out.push(
          h(
            Text,
            {
              key: `l${first + i}`,
              wrap: 'truncate',
              inverse: isSelected,
              bold: l.kind === 'heading',
              color: critical && !isSelected ? 'red' : undefined,
            },
            `${isSelected ? '›' : ' '} ${l.text}`,
          ),
        );
      });
    }
    return h(
      Box,
      { flexDirection: 'column', width, height: Math.max(1, height - 1), overflow: 'hidden' },
      ...out,
      h(Box, { key: 'gap', flexGrow: 1 }),
      ...bottom,
    );
  };
}
