/**
 * A sampling CPU profile of this process's main thread (node:inspector), summed by who owns the code:
 * Atelier's packages, each dependency (kysely, pg, the Temporal SDK...), the bench's own HTTP client,
 * Node internals, GC. Built-in functions (JSON, RegExp, typed arrays...) and Node's own JavaScript are
 * charged to the nearest caller outside them. Used by diagnostic phases to say where main-thread CPU goes; the profiler's own
 * overhead makes those phases slower, so they are not measurements.
 */
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber?: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

const NODE_INTERNALS = 'node internals (event loop, sockets, HTTP parsing)';

function owner(url: string): string {
  const atelier = /\/packages\/([^/]+)\/src\//.exec(url);
  if (atelier) return `atelier ${atelier[1]}`;
  if (/\/bench\/[^/]+\.ts/.test(url)) return 'bench harness';
  if (/undici/.test(url)) return 'bench HTTP client (undici fetch)';
  if (url.startsWith('node:')) return NODE_INTERNALS;
  const deps = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)];
  const pkg = deps[deps.length - 1]?.[1];
  if (pkg) {
    if (pkg.startsWith('@temporalio/') || pkg === 'protobufjs' || pkg.startsWith('@grpc/') || pkg === 'rxjs')
      return 'Temporal SDK (JavaScript)';
    if (/^(pg|postgres)(-|$)/.test(pkg)) return 'pg driver';
    if (pkg === 'hono' || pkg.startsWith('@hono/')) return 'hono';
    return pkg;
  }
  return 'other code';
}

function shortUrl(url: string): string {
  const parts = url.split('/');
  return parts.slice(-2).join('/');
}

export interface ProfileSummary {
  /** Busy main-thread ms by owner, largest first (the smallest folded into "rest"). */
  byOwner: Record<string, number>;
  /** The hottest functions by self time (ms), a built-in named with the caller it was charged to. */
  topFunctions: Record<string, number>;
}

export class MainThreadProfiler {
  private readonly session = new Session();

  async start(samplingIntervalUs = 500): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
    await this.session.post('Profiler.start');
  }

  async stop(top = 14): Promise<ProfileSummary> {
    const { profile } = (await this.session.post('Profiler.stop')) as unknown as { profile: Profile };
    await this.session.post('Profiler.disable');
    this.session.disconnect();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const categoryOf = new Map<number, string | undefined>();
    const categorize = (id: number): string | undefined => {
      if (categoryOf.has(id)) return categoryOf.get(id);
      const { functionName, url } = byId.get(id)!.callFrame;
      let category: string | undefined;
      if (functionName === '(idle)') category = undefined;
      else if (functionName === '(garbage collector)') category = 'garbage collector';
      else if (functionName === '(program)' || functionName === '(root)') category = 'native (program)';
      else if (url && owner(url) !== NODE_INTERNALS) category = owner(url);
      else {
        // A built-in or Node's own JavaScript (sockets, streams, timers): charge the nearest caller that is
        // neither, so pg's socket writes count as pg and the gateway's response writes as hono. Work that
        // starts in the event loop itself (HTTP parsing, socket reads before they reach a handler) stays.
        const p = parent.get(id);
        const atRoot = p === undefined || byId.get(p)!.callFrame.functionName === '(root)';
        category = atRoot ? (url ? NODE_INTERNALS : 'native builtins') : categorize(p);
        if (category === 'native builtins' && url) category = NODE_INTERNALS;
      }
      categoryOf.set(id, category);
      return category;
    };
    const describeFn = (id: number): string => {
      const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
      const name = functionName || '(anonymous)';
      if (url) return `${name} ${shortUrl(url)}:${(lineNumber ?? 0) + 1}`;
      let p = parent.get(id);
      while (p !== undefined && !byId.get(p)!.callFrame.url) p = parent.get(p);
      return p === undefined ? name : `${name} [built-in] <- ${describeFn(p)}`;
    };
    const totals = new Map<string, number>();
    const functions = new Map<string, number>();
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    // Each sample's time is the gap to the next sample.
    for (let i = 0; i < samples.length; i++) {
      const category = categorize(samples[i]!);
      const ms = (deltas[i + 1] ?? 0) / 1000;
      if (!category) continue;
      totals.set(category, (totals.get(category) ?? 0) + ms);
      if (category !== 'native (program)') {
        const fn = describeFn(samples[i]!);
        functions.set(fn, (functions.get(fn) ?? 0) + ms);
      }
    }
    const sorted = [...totals.entries()].sort((a, b) => b[1] - a[1]);
    const byOwner: Record<string, number> = {};
    for (const [k, v] of sorted.slice(0, top)) byOwner[k] = v;
    const rest = sorted.slice(top).reduce((s, [, v]) => s + v, 0);
    if (rest > 0) byOwner.rest = rest;
    const topFunctions = Object.fromEntries([...functions.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12));
    return { byOwner, topFunctions };
  }
}
