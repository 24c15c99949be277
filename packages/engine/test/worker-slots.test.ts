import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKER_SLOTS, workerSlotsFromEnv } from '../src/worker-slots.js';

describe('worker slots from the environment', () => {
  it('keeps the defaults when nothing is set, a bounded workflow cache among them', () => {
    expect(workerSlotsFromEnv({})).toEqual({ ...DEFAULT_WORKER_SLOTS });
    expect(DEFAULT_WORKER_SLOTS.workflowCache).toBe(500);
  });

  it('reads each setting, the workflow cache included', () => {
    expect(
      workerSlotsFromEnv({
        ATELIER_WORKER_MAX_ACTIVITIES: '2500',
        ATELIER_WORKER_MAX_DETACHED_STEPS: '0',
        ATELIER_WEBHOOK_MAX_ACTIVITIES: '50',
        ATELIER_WORKFLOW_TASK_SLOTS: '4',
        ATELIER_WORKFLOW_CACHE_SIZE: '200',
        ATELIER_WORKFLOW_QUEUE_POLL_RATIO: '1',
      }),
    ).toEqual({ activities: 2500, detachedSteps: 0, webhookActivities: 50, workflowTasks: 4, workflowCache: 200, queuePollRatio: 1 });
  });

  it('refuses a value that is not a whole number in range, naming the setting', () => {
    expect(() => workerSlotsFromEnv({ ATELIER_WORKFLOW_CACHE_SIZE: 'lots' })).toThrow(
      /ATELIER_WORKFLOW_CACHE_SIZE must be an integer of at least 2/,
    );
    // Temporal's own floor for a cache that is on (0 would turn it off, and every task would replay).
    for (const bad of ['0', '1'])
      expect(() => workerSlotsFromEnv({ ATELIER_WORKFLOW_CACHE_SIZE: bad })).toThrow(
        /ATELIER_WORKFLOW_CACHE_SIZE must be an integer of at least 2/,
      );
    expect(() => workerSlotsFromEnv({ ATELIER_WORKFLOW_TASK_SLOTS: '0' })).toThrow(/ATELIER_WORKFLOW_TASK_SLOTS/);
    expect(() => workerSlotsFromEnv({ ATELIER_WORKER_MAX_DETACHED_STEPS: '-1' })).toThrow(
      /ATELIER_WORKER_MAX_DETACHED_STEPS must be an integer of at least 0/,
    );
    for (const bad of ['0', '1.5', 'half'])
      expect(() => workerSlotsFromEnv({ ATELIER_WORKFLOW_QUEUE_POLL_RATIO: bad })).toThrow(
        /ATELIER_WORKFLOW_QUEUE_POLL_RATIO must be a number above 0 and at most 1/,
      );
  });
});
