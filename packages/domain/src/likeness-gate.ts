/**
 * The character gate: may this character be used for this planned use, on this day?
 *
 * Pure: the facts (character, versions with their provider copies, the depicted subject and its consents)
 * are loaded by the database layer and judged here, by the same function for `:check`, for run and order
 * intake, and for the engine's re-check before a waiting run starts.
 */
import { type Bindings, bindingModels } from './bindings.js';
import type { ConsentStatus } from './consent.js';

export const CHARACTER_MEDIA = ['image', 'video', 'voice'] as const;
export type CharacterMedia = (typeof CHARACTER_MEDIA)[number];

export interface ConsentFacts {
  status: ConsentStatus;
  coversLikeness: boolean;
  coversVoice: boolean;
  scope: { uses: string[]; media: string[]; channels: string[]; territories: string[] };
  startsOn: string;
  endsOn: string;
}

export interface BindingFacts {
  provider: string;
  assetKind: 'likeness' | 'voice';
  photoBased: boolean;
  providerConsentStatus: 'pending' | 'accepted' | 'refused' | 'not_required';
  disabled: boolean;
}

export interface VersionFacts {
  number: number;
  subjectId: string | null;
  retired: boolean;
  bindings: BindingFacts[];
}

export interface CharacterFacts {
  format: 'synthetic' | 'likeness';
  archived: boolean;
  versions: VersionFacts[];
  subject: { erased: boolean } | null;
  consents: ConsentFacts[];
}

export interface CharacterUseRequest {
  media: CharacterMedia;
  use?: string;
  channel?: string;
  territory?: string;
  /** Recorded with the check; no consent scope names advertisers, so it does not narrow the answer. */
  advertiser?: string;
  /** Providers the likeness would be sent to (each needs an accepted provider copy). */
  providers: string[];
  /** The day of the use, YYYY-MM-DD. */
  on: string;
  /** A specific version; otherwise the newest version that is not retired. */
  versionNumber?: number;
}

export interface CharacterVerdict {
  usable: boolean;
  reasons: string[];
  /** The version judged, when there is one. */
  version: number | null;
}

/** A scope dimension covers a value when it lists it or `*`; a dimension the use does not name is not judged. */
function covers(allowed: readonly string[], value: string | undefined): boolean {
  if (value === undefined) return true;
  return allowed.includes('*') || allowed.map((v) => v.toLowerCase()).includes(value.toLowerCase());
}

/** Why one consent does not cover the use (empty when it does). */
function consentShortfalls(consent: ConsentFacts, use: CharacterUseRequest): string[] {
  const reasons: string[] = [];
  if (consent.status === 'revoked') reasons.push('consent_revoked');
  else if (consent.status === 'suspended') reasons.push('consent_suspended');
  else if (consent.status === 'pending') reasons.push('consent_pending');
  if (use.on > consent.endsOn) reasons.push('consent_expired');
  if (use.on < consent.startsOn) reasons.push('consent_not_started');
  if (!covers(consent.scope.media, use.media)) reasons.push('media_not_covered');
  if (!covers(consent.scope.uses, use.use)) reasons.push('use_not_covered');
  if (!covers(consent.scope.channels, use.channel)) reasons.push('channel_not_covered');
  if (!covers(consent.scope.territories, use.territory)) reasons.push('territory_not_covered');
  return reasons;
}

function pickVersion(versions: readonly VersionFacts[], wanted: number | undefined): VersionFacts | string {
  if (versions.length === 0) return 'no_version';
  if (wanted !== undefined) {
    const exact = versions.find((v) => v.number === wanted);
    if (!exact) return 'version_not_found';
    return exact.retired ? 'version_retired' : exact;
  }
  const live = [...versions].filter((v) => !v.retired).sort((a, b) => b.number - a.number)[0];
  return live ?? 'version_retired';
}

export function judgeCharacterUse(facts: CharacterFacts | null, use: CharacterUseRequest): CharacterVerdict {
  if (!facts) return { usable: false, reasons: ['character_not_found'], version: null };
  const reasons: string[] = [];
  if (facts.archived) reasons.push('character_archived');
  const picked = pickVersion(facts.versions, use.versionNumber);
  const version = typeof picked === 'string' ? null : picked;
  if (typeof picked === 'string') reasons.push(picked);

  // Synthetic avatars depict nobody: no subject, no consent, no provider consent.
  if (facts.format === 'likeness') {
    if (!facts.subject || facts.subject.erased) reasons.push('subject_erased');
    const kind = use.media === 'voice' ? 'voice' : 'likeness';
    const relevant = facts.consents.filter((c) => (kind === 'voice' ? c.coversVoice : c.coversLikeness));
    if (relevant.length === 0) reasons.push('consent_missing');
    else {
      const shortfalls = relevant.map((c) => consentShortfalls(c, use));
      if (!shortfalls.some((s) => s.length === 0)) reasons.push(...new Set(shortfalls.flat()));
    }
    if (version) {
      for (const provider of new Set(use.providers)) {
        const copy = version.bindings.find(
          (b) =>
            b.provider === provider &&
            b.assetKind === kind &&
            !b.disabled &&
            (b.providerConsentStatus === 'accepted' || (b.providerConsentStatus === 'not_required' && b.photoBased)),
        );
        if (!copy) reasons.push('provider_consent_missing');
      }
    }
  }
  const unique = [...new Set(reasons)];
  return { usable: unique.length === 0, reasons: unique, version: version?.number ?? null };
}

/** What a run of a workflow producing `artifactClass` uses the character for. */
export function mediaOfArtifactClass(artifactClass: string): CharacterMedia {
  return artifactClass === 'video' ? 'video' : 'image';
}

/** The use a run's intake implies: its media, the providers its role bindings send work to, and the intake's use/channel/territory when it has them. */
export function runCharacterUse(input: {
  artifactClass: string;
  bindings: Bindings;
  intake: Record<string, unknown>;
  on: string;
}): CharacterUseRequest {
  const text = (key: string) => (typeof input.intake[key] === 'string' ? (input.intake[key] as string) : undefined);
  const use: CharacterUseRequest = {
    media: mediaOfArtifactClass(input.artifactClass),
    // Fallbacks included: work may be sent to any model a binding lists.
    providers: [
      ...new Set(Object.values(input.bindings).flatMap((binding) => bindingModels(binding).map((model) => model.split('/')[0]!))),
    ],
    on: input.on,
  };
  for (const key of ['use', 'channel', 'territory'] as const) {
    const value = text(key);
    if (value) use[key] = value;
  }
  return use;
}

/** Today as a calendar day in UTC. */
export const utcDay = (at: Date = new Date()): string => at.toISOString().slice(0, 10);
