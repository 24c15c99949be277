import pg from 'pg';
import { presentRun } from '@atelier/api/presenters/run';
import { type Db, RUN_EVENTS_CHANNEL, getRunRow, getRunSteps } from '@atelier/db';
import { isTerminalRunStatus } from '@atelier/domain';

export async function showRun(db: Db, runId: string): Promise<number> {
  const run = await getRunRow(db, runId);
  if (!run) {
    console.error(`run ${runId} not found`);
    return 1;
  }
  console.log(JSON.stringify(presentRun(run, await getRunSteps(db, runId)), null, 2));
  return 0;
}

/**
 * Follows a run live: prints its recorded events, then each new one as the database announces it, and
 * returns when the run reaches a terminal status.
 */
export async function watchRun(db: Db, databaseUrl: string, runId: string, print: (line: string) => void = console.log): Promise<number> {
  const run = await getRunRow(db, runId);
  if (!run) {
    console.error(`run ${runId} not found`);
    return 1;
  }
  const listener = new pg.Client({ connectionString: databaseUrl });
  await listener.connect();
  let lastSeq = 0;
  let wake: () => void = () => undefined;
  listener.on('notification', (msg) => {
    if (msg.payload?.startsWith(`${runId}:`)) wake();
  });
  await listener.query(`LISTEN ${RUN_EVENTS_CHANNEL}`);
  try {
    for (;;) {
      const events = await db
        .selectFrom('run_events')
        .selectAll()
        .where('run_id', '=', runId)
        .where('seq', '>', lastSeq)
        .orderBy('seq')
        .execute();
      for (const e of events) {
        lastSeq = e.seq;
        print(`${e.created_at.toISOString()} #${e.seq} ${e.type} ${JSON.stringify(e.data)}`);
        const status = (e.data as { status?: string }).status;
        if (e.type === 'run.status' && status && isTerminalRunStatus(status)) {
          const final = await getRunRow(db, runId);
          print(`run ${runId} ended ${status}${final?.error ? `: ${final.error}` : ''}`);
          return status === 'failed' ? 2 : 0;
        }
      }
      // Woken by NOTIFY; the timeout only guards against a notification lost with a dropped connection.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    await listener.end();
  }
}
