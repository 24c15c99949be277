import type { ClassifyRequest } from '../types.js';

/**
 * The local classifier: a small deterministic policy so that gate verdicts are reproducible offline.
 * Safety rejects text naming weapons, gore, or minors in unsafe contexts (decisions §5). Quality rejects
 * empty, placeholder or truncated output.
 */
const SAFETY_RULES: Array<{ reason: string; pattern: RegExp }> = [
  {
    reason: 'weapons',
    pattern: /\b(guns?|rifles?|pistols?|shotguns?|firearms?|bombs?|grenades?|explosives?|ammunition|weapons?|machine ?guns?)\b/i,
  },
  { reason: 'gore', pattern: /\b(gore|gory|bloody|blood-soaked|dismember\w*|decapitat\w*|mutilat\w*|corpses?|entrails)\b/i },
  {
    reason: 'minors_unsafe',
    pattern:
      /\b(child|children|minors?|kids?|teens?|teenagers?|underage)\b[^.]{0,60}\b(nude|naked|sexual\w*|lingerie|erotic|violent|weapons?|guns?|alcohol|drugs?)\b|\b(nude|naked|sexual\w*|lingerie|erotic)\b[^.]{0,60}\b(child|children|minors?|kids?|teens?|underage)\b/i,
  },
];

const PLACEHOLDER = /\b(lorem ipsum|todo|tbd|placeholder)\b/i;

export function localVerdict(req: Pick<ClassifyRequest, 'policy' | 'text'>): { pass: boolean; reasons: string[]; verdict: string } {
  if (req.policy === 'safety') {
    const reasons = SAFETY_RULES.filter((r) => r.pattern.test(req.text)).map((r) => r.reason);
    return reasons.length
      ? { pass: false, reasons, verdict: `unsafe: the work names ${reasons.join(', ').replace(/_/g, ' ')}` }
      : { pass: true, reasons: [], verdict: 'safe: no policy matches' };
  }
  const reasons: string[] = [];
  const text = req.text.trim();
  if (text.length < 20) reasons.push('too_short');
  if (PLACEHOLDER.test(text)) reasons.push('placeholder_text');
  if (/""|:\s*null\b/.test(text)) reasons.push('empty_fields');
  return reasons.length
    ? { pass: false, reasons, verdict: `below quality bar: ${reasons.join(', ').replace(/_/g, ' ')}` }
    : { pass: true, reasons: [], verdict: 'meets the quality bar' };
}
