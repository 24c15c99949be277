/**
 * CPU accounting from /proc (Linux): CPU time used by this process and by the processes it started
 * (the Temporal dev server, the embedded PostgreSQL and its backends), and the machine's busy time, so
 * each phase can say where its CPU went. Best effort: off Linux, or for an external DATABASE_URL, the
 * figures it cannot see are reported as null.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const TICK_MS = (() => {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  } catch {
    return 10;
  }
})();

export interface CpuSample {
  at: number;
  /** CPU milliseconds by component: node (this process, all its threads), temporal, postgres, other children. */
  byComponent: Record<string, number>;
  machineBusyMs: number;
  machineTotalMs: number;
}

/**
 * A process's CPU: its own (utime + stime) and, in `reapedMs`, that of children it has waited for
 * (cutime + cstime), so a PostgreSQL backend that exited mid-phase still counts (its postmaster reaped it).
 */
function parseStat(pid: string): { ppid: number; comm: string; cpuMs: number; reapedMs: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // fields[0] is the state (field 3 of stat); utime and stime are fields 14 and 15.
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    const reaped = Number(fields[13]) + Number(fields[14]);
    return { ppid: Number(fields[1]), comm, cpuMs: (utime + stime) * TICK_MS, reapedMs: reaped * TICK_MS };
  } catch {
    return undefined;
  }
}

/** CPU one process has spent so far, all its threads, in ms; undefined once it has gone. */
export function processCpuMs(pid: number): number | undefined {
  return parseStat(String(pid))?.cpuMs;
}

function machine(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.reduce((s, x) => s + x, 0);
    const idle = (v[3] ?? 0) + (v[4] ?? 0);
    return { busy: (total - idle) * TICK_MS, total: total * TICK_MS };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

function classify(comm: string): string {
  if (comm.startsWith('temporal')) return 'temporal';
  if (comm.startsWith('postgres')) return 'postgres';
  // Atelier's gateway and worker processes (bench/atelier-processes.ts), and any other Node child.
  if (comm === 'node' || comm.startsWith('node ')) return 'atelier';
  return 'other';
}

/**
 * This process by thread: the main thread (the gateway, activities, the SDK's JavaScript, the bench's
 * clients), Temporal core (the SDK's Rust threads), and the other Node threads (the workflow sandbox
 * thread, V8 GC helpers, the libuv pool).
 */
function threadsOfSelf(): Record<string, number> {
  const out: Record<string, number> = { nodeMain: 0, nodeTemporalCore: 0, nodeOtherThreads: 0 };
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${process.pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const text = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
      const close = text.lastIndexOf(')');
      const comm = text.slice(text.indexOf('(') + 1, close);
      const fields = text.slice(close + 2).split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
      if (Number(tid) === process.pid) out.nodeMain! += ms;
      else if (/^(tokio|temporal|workflow)/.test(comm)) out.nodeTemporalCore! += ms;
      else out.nodeOtherThreads! += ms;
    } catch {
      // the thread ended
    }
  }
  return out;
}

export function sampleCpu(): CpuSample {
  const stats = new Map<number, { ppid: number; comm: string; cpuMs: number; reapedMs: number }>();
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    // not Linux
  }
  for (const pid of pids) {
    const s = parseStat(pid);
    if (s) stats.set(Number(pid), s);
  }
  const children = new Map<number, number[]>();
  for (const [pid, s] of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  const byComponent: Record<string, number> = { node: stats.get(process.pid)?.cpuMs ?? 0, atelier: 0, temporal: 0, postgres: 0, other: 0 };
  const queue = [...(children.get(process.pid) ?? [])];
  while (queue.length) {
    const pid = queue.pop()!;
    const s = stats.get(pid)!;
    // Descendants count with the children they reaped; this process's own reaped children (one-off
    // helper commands) are left out.
    byComponent[classify(s.comm)]! += s.cpuMs + s.reapedMs;
    queue.push(...(children.get(pid) ?? []));
  }
  Object.assign(byComponent, threadsOfSelf());
  const m = machine();
  return { at: performance.now(), byComponent, machineBusyMs: m.busy, machineTotalMs: m.total };
}

export interface CpuDelta {
  /** CPU ms spent per component during the phase. */
  cpuMs: Record<string, number>;
  /** Busy CPU ms of the whole machine (includes other tenants) and the cores' capacity over the phase. */
  machineBusyMs: number;
  machineCapacityMs: number;
}

export function cpuDelta(a: CpuSample, b: CpuSample): CpuDelta {
  const cpuMs: Record<string, number> = {};
  for (const k of Object.keys(b.byComponent)) cpuMs[k] = Math.round((b.byComponent[k] ?? 0) - (a.byComponent[k] ?? 0));
  return {
    cpuMs,
    machineBusyMs: Math.round(b.machineBusyMs - a.machineBusyMs),
    machineCapacityMs: Math.round(b.machineTotalMs - a.machineTotalMs),
  };
}
