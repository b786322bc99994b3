// The stop requests a service reads are its own: an inbox per service (wired in create-service.ts), fed
// by its incident store while that store is the writer, so two services in one process share nothing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IncidentStore } from '../../main/core/storage/incident-store';
import { recordStopRequest, StopRequestInbox } from '../../main/core/storage/stop-requests';
import { removeDir } from '../support/spawned-groups';

const dirs: string[] = [];
const stores: IncidentStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-stop-requests-'));
  dirs.push(dir);
  return dir;
}

function open(dir: string, inbox: StopRequestInbox): IncidentStore {
  const store = IncidentStore.open(dir, { stopRequests: inbox });
  stores.push(store);
  return store;
}

const GROUP = { id: '4242:4242:100', pgid: 4242, members: [{ pid: 4242, startKey: 100 }] };
const ask = (dir: string, at: number) =>
  recordStopRequest(dir, {
    groupId: GROUP.id,
    pgid: GROUP.pgid,
    members: GROUP.members,
    at,
    via: 'corral kill',
  });

describe('StopRequestInbox', () => {
  it("reads the requests of its own service's data directory only, never another service's", () => {
    const dirA = tempDir();
    const dirB = tempDir();
    const inboxA = new StopRequestInbox();
    const inboxB = new StopRequestInbox();
    open(dirA, inboxA);
    open(dirB, inboxB);
    const now = Date.now();
    ask(dirA, now)([{ signal: 'SIGTERM', target: '-4242', at: now, result: 'sent' }]);

    const seenByA = inboxA.requestsFor(GROUP, now - 1000, now);
    expect(seenByA).toHaveLength(1);
    expect(seenByA[0]).toMatchObject({ groupId: GROUP.id, via: 'corral kill', by: process.pid });
    expect(seenByA[0]!.signals).toEqual([{ signal: 'SIGTERM', target: '-4242', at: now, result: 'sent' }]);
    expect(inboxB.requestsFor(GROUP, now - 1000, now)).toEqual([]);
  });

  it('reads only while its store is the writer: not as a reader, and not once the store is closed', () => {
    const dir = tempDir();
    const writerInbox = new StopRequestInbox();
    const readerInbox = new StopRequestInbox();
    const writer = open(dir, writerInbox);
    const reader = open(dir, readerInbox);
    expect(writer.readOnly).toBeNull();
    expect(reader.readOnly).not.toBeNull();
    const now = Date.now();
    ask(dir, now);

    expect(writerInbox.requestsFor(GROUP, now - 1000, now)).toHaveLength(1);
    expect(readerInbox.requestsFor(GROUP, now - 1000, now)).toEqual([]);
    writer.close();
    expect(writerInbox.requestsFor(GROUP, now - 1000, now)).toEqual([]);
  });

  it('matches the group by PGID and id or a member, asked since the group began', () => {
    const dir = tempDir();
    const inbox = new StopRequestInbox();
    const unwatch = inbox.watch(dir);
    const now = Date.now();
    ask(dir, now);

    expect(inbox.requestsFor({ ...GROUP, id: '4242:4300:200' }, now - 1000, now)).toHaveLength(1);
    expect(inbox.requestsFor({ ...GROUP, id: '4242:4300:200', members: [] }, now - 1000, now)).toEqual([]);
    expect(inbox.requestsFor({ ...GROUP, pgid: 4243 }, now - 1000, now)).toEqual([]);
    expect(inbox.requestsFor(GROUP, now + 1, now + 1)).toEqual([]);
    unwatch();
    expect(inbox.requestsFor(GROUP, now - 1000, now)).toEqual([]);
  });
});
