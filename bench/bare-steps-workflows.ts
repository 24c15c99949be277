// The floor for per-step overhead: ten no-op activities in sequence, nothing else.
import { proxyActivities } from '@temporalio/workflow';

const { noop } = proxyActivities<{ noop(i: number): Promise<number> }>({ startToCloseTimeout: '1 minute' });

export async function tenNoopActivities(): Promise<number> {
  let total = 0;
  for (let i = 0; i < 10; i++) total += await noop(i);
  return total;
}
