import { condition, defineQuery, defineSignal, setHandler, sleep } from '@temporalio/workflow';

/** The release that wrote the histories: a timer, then a wait for `poke`. */
export const poke = defineSignal('poke');
export const stage = defineQuery<string>('stage');

export async function waiter(): Promise<string> {
  let poked = false;
  let at = 'sleeping';
  setHandler(poke, () => {
    poked = true;
  });
  setHandler(stage, () => at);
  await sleep(10);
  at = 'waiting';
  await condition(() => poked);
  return 'poked';
}
