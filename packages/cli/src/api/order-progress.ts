import cliProgress from 'cli-progress';
import type { Order } from '@atelier/client';
import { money } from './format.js';

/**
 * The progress of an order: settled (succeeded + failed + cancelled) of targetCount, with running,
 * spend against budgetLimitUsd when set, a rate (children settled per minute) and an ETA. On a
 * terminal it is a live cli-progress bar; otherwise one plain line each time something changes.
 */
export class OrderProgress {
  private bar: cliProgress.SingleBar | undefined;
  private readonly startedAt = Date.now();
  private lastLine = '';
  private firstSettled: number | undefined;

  constructor(private readonly out: NodeJS.WriteStream) {}

  private numbers(o: Order) {
    const settled = o.counts.succeeded + o.counts.failed + o.counts.cancelled;
    this.firstSettled ??= settled;
    // Children settled per minute since this watch began (what was settled before does not count).
    const elapsedMin = (Date.now() - this.startedAt) / 60_000;
    const rate = elapsedMin > 0 ? (settled - this.firstSettled) / elapsedMin : 0;
    const left = o.targetCount - settled;
    const etaSeconds = rate > 0 ? Math.round((left / rate) * 60) : undefined;
    const spend =
      o.budgetLimitUsd === null ? `spent ${money(o.actualCostUsd)}` : `spent ${money(o.actualCostUsd)} of ${money(o.budgetLimitUsd)}`;
    return { settled, rate, etaSeconds, spend };
  }

  update(o: Order): void {
    const n = this.numbers(o);
    const payload = {
      status: o.status,
      succeeded: o.counts.succeeded,
      failed: o.counts.failed,
      running: o.counts.running,
      spend: n.spend,
      rate: n.rate.toFixed(1),
      etaText: n.etaSeconds === undefined ? '--' : `${n.etaSeconds}s`,
    };
    if (this.out.isTTY) {
      if (!this.bar) {
        this.bar = new cliProgress.SingleBar(
          {
            format: `${o.id} {bar} {value}/{total} | ok {succeeded} failed {failed} running {running} | {spend} | {rate}/min | ETA {etaText} | {status}`,
            stream: this.out,
            hideCursor: true,
            clearOnComplete: false,
            etaBuffer: 20,
          },
          cliProgress.Presets.shades_classic,
        );
        this.bar.start(o.targetCount, n.settled, payload);
      } else {
        this.bar.setTotal(o.targetCount);
        this.bar.update(n.settled, payload);
      }
      return;
    }
    const line = `${o.id} ${o.status}: ${n.settled}/${o.targetCount} settled (succeeded ${o.counts.succeeded}, failed ${o.counts.failed}, running ${o.counts.running}), ${n.spend}, ${payload.rate}/min, ETA ${payload.etaText}`;
    if (line.replace(/, [\d.]+\/min, ETA \S+$/, '') !== this.lastLine.replace(/, [\d.]+\/min, ETA \S+$/, '')) this.out.write(`${line}\n`);
    this.lastLine = line;
  }

  finish(o: Order): void {
    this.update(o);
    this.stop();
    const c = o.counts;
    this.out.write(
      `order ${o.id} ended ${o.status}: ${c.succeeded} succeeded, ${c.failed} failed, ${c.cancelled} cancelled of ${o.targetCount}; spent ${money(o.actualCostUsd)}${o.failureReason ? ` (${o.failureReason})` : ''}\n`,
    );
  }

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
  }
}
