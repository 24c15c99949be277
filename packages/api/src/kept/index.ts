import { type Db, findLiveApiKey, getWorkflowWithLive } from '@atelier/db';
import type { RunEventHub } from '../events/run-event-hub.js';
import { KeptReads } from './kept-reads.js';

/** What a gateway keeps in memory of what every run creation reads: see KeptReads for when it is forgotten. */
export interface Kept {
  /** A workflow with its live version, by workflow id (kept when not found too: inserts are announced). */
  workflows: KeptReads<Awaited<ReturnType<typeof getWorkflowWithLive>>>;
  /** The live API key with a secret hash, with the membership it acts through; only keys found are kept. */
  apiKeys: KeptReads<Awaited<ReturnType<typeof findLiveApiKey>>>;
}

const byHub = new WeakMap<RunEventHub, Kept>();

/** The gateway's one set of kept reads, heard through its one database listener. */
export function kept(services: { db: Db; events: RunEventHub }): Kept {
  let found = byHub.get(services.events);
  if (!found) {
    const { db, events } = services;
    found = {
      workflows: new KeptReads(events, ['workflows', 'workflow_versions'], (id) => getWorkflowWithLive(db, id)),
      apiKeys: new KeptReads(
        events,
        ['api_keys', 'memberships'],
        (hash) => findLiveApiKey(db, hash),
        (key) => key !== undefined,
      ),
    };
    byHub.set(services.events, found);
  }
  return found;
}
