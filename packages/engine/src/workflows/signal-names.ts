/**
 * Names of run workflow signals that activities send too (through the worker's client), kept apart from
 * the workflow code so an activity can name one without importing it.
 */
export const PROVIDER_JOB_ENDED_SIGNAL = 'providerJobEnded';
