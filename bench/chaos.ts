/**
 * Chaos bench: runs, an order and faults at once (see bench/chaos-scenario.ts and the Chaos section of
 * bench/README.md). Progress goes to stderr; the figures are printed as a table and, last, as one JSON
 * line. Exits 1 when a run was lost, a step billed twice, a run left stuck or a retried POST created a second run.
 *
 *   npm run bench -- chaos          (CHAOS_* environment variables change the sizes)
 */
import { chaosOptionsFromEnv, runChaos } from './chaos-scenario';

const log = (line: string) => process.stderr.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

async function main(): Promise<number> {
  const options = chaosOptionsFromEnv();
  log(`options ${JSON.stringify(options)}`);
  const r = await runChaos({ ...options, log });
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = [
    `runs requested / acknowledged   ${r.runs.requested} / ${r.runs.acknowledged} (+ ${options.orderChildren} order children)`,
    `runs lost                       ${r.runs.lost}${r.runs.lost ? `  ${r.runs.lostIds.slice(0, 10).join(', ')}` : ''}`,
    `steps billed twice              ${r.billing.billedTwice}  (runs: cost ≠ sum of steps ${r.billing.runTotalMismatch}; steps settled twice ${r.billing.stepsSettledTwice}; cost ≠ undisturbed run ${r.billing.referenceMismatch} of ${r.billing.comparedWithReference} compared)`,
    `steps re-executed               ${r.billing.stepsReexecuted}  (attempts > 1: work cut off by a kill and done again; free on the local provider)`,
    `extra runs (unanswered POSTs)   ${r.runs.unacknowledgedRows}  (rows beyond the acknowledged: a POST that committed but whose answer was lost, sent again; each carries an Idempotency-Key, so 0)`,
    `runs stuck non-terminal         ${r.runs.stuck}${r.runs.stuck ? `  ${JSON.stringify(r.runs.stuckIds.slice(0, 10))}` : ''}`,
    `final run statuses              ${JSON.stringify(r.runs.statuses)}`,
    `gateway answers ≥ 500           503: ${r.gateway.status503} (${r.gateway.status503WithRetryAfter} with Retry-After); other 5xx: ${r.gateway.other5xx}; no answer: ${r.gateway.networkErrors}; of ${r.gateway.requests} requests`,
    `while PostgreSQL was frozen     ${r.gateway.duringFreeze.requests} requests: 503 ${r.gateway.duringFreeze.status503}, other answers ${r.gateway.duringFreeze.other}, no answer ${r.gateway.duringFreeze.unanswered}; slowest answer ${s(r.gateway.duringFreeze.slowestMs)}`,
    `order                           ${r.order.status} ${JSON.stringify(r.order.counts)} actual $${r.order.actualCostUsd}`,
    `faults                          worker SIGKILLs ${r.faults.workerKills} (+ ${r.faults.workerSelfExits} exits on its own, ${r.faults.workerExitsWhileRunning} of them after it had come up); gateway SIGKILLs ${r.faults.gatewayKills} (${r.faults.gatewayBurstUnanswered} burst requests unanswered, + ${r.faults.gatewaySelfExits} exits on its own)`,
    `                                Temporal restarts ${r.faults.temporalRestarts}, SIGKILLs ${r.faults.temporalKills}; PostgreSQL stopped ${s(r.faults.pgOutageMs)}, postmaster SIGKILLs ${r.faults.pgKills}, frozen (SIGSTOP) ${s(r.faults.pgFreezeMs)}`,
    `undelivered engine commands     ${r.pendingEngineCommands}`,
    `time                            load ${s(r.timings.loadMs)}, faults ${s(r.timings.faultsMs)}, drain after the last fault ${s(r.timings.drainMs)}, last run finished ${s(r.timings.lastRunFinishedAfterLoadMs)} after the last was acknowledged, total ${s(r.timings.totalMs)}`,
  ];
  if (r.gateway.other5xxDetails.length) lines.push(`other 5xx: ${r.gateway.other5xxDetails.join('\n  ')}`);
  if (r.billing.details.length) lines.push(`billing details:\n  ${r.billing.details.slice(0, 20).join('\n  ')}`);
  console.log(lines.join('\n'));
  console.log(JSON.stringify({ bench: 'chaos', options, ...r }));
  return r.runs.lost > 0 || r.billing.billedTwice > 0 || r.runs.stuck > 0 || r.runs.unacknowledgedRows > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
