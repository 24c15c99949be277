import { condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';

/**
 * An incompatible release of the same workflow type: an activity where v1's history holds a timer, so
 * replaying v1's history fails with a nondeterminism error.
 */
export const poke = defineSignal('poke');
export const stage = defineQuery<string>('stage');

const { prepare } = proxyActivities<{ prepare(): Promise<void> }>({ startToCloseTimeout: '1 minute' });

export async function waiter(): Promise<string> {
  let poked = false;
  let at = 'preparing';
  setHandler(poke, () => {
    poked = true;
  });
  setHandler(stage, () => at);
  await prepare();
  at = 'waiting';
  await condition(() => poked);
  return 'poked';
}
