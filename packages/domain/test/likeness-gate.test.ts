import { describe, expect, it } from 'vitest';
import { consentMove, withinConsentSpan } from '../src/consent.js';
import { type CharacterFacts, type ConsentFacts, judgeCharacterUse, runCharacterUse } from '../src/likeness-gate.js';

const consent = (over: Partial<ConsentFacts> = {}): ConsentFacts => ({
  status: 'active',
  coversLikeness: true,
  coversVoice: false,
  scope: { uses: ['advertising'], media: ['image', 'video'], channels: ['social'], territories: ['US', 'CA'] },
  startsOn: '2026-01-01',
  endsOn: '2027-12-31',
  ...over,
});

const likeness = (over: Partial<CharacterFacts> = {}): CharacterFacts => ({
  format: 'likeness',
  archived: false,
  versions: [
    {
      number: 1,
      subjectId: 's1',
      retired: false,
      bindings: [{ provider: 'local', assetKind: 'likeness', photoBased: false, providerConsentStatus: 'accepted', disabled: false }],
    },
  ],
  subject: { erased: false },
  consents: [consent()],
  ...over,
});

const use = { media: 'image' as const, providers: ['local'], on: '2026-11-22' };

describe('consent state machine', () => {
  it('allows exactly the contract moves', () => {
    expect(consentMove('pending', 'activate')).toEqual({ kind: 'move', from: 'pending', to: 'active' });
    expect(consentMove('active', 'suspend')).toEqual({ kind: 'move', from: 'active', to: 'suspended' });
    expect(consentMove('suspended', 'resume')).toEqual({ kind: 'move', from: 'suspended', to: 'active' });
    for (const from of ['pending', 'active', 'suspended'] as const)
      expect(consentMove(from, 'revoke')).toMatchObject({ kind: 'move', to: 'revoked' });
    expect(consentMove('revoked', 'revoke')).toEqual({ kind: 'unchanged', status: 'revoked' });
  });

  it('refuses every other move', () => {
    const invalid = [
      ['pending', 'suspend'],
      ['pending', 'resume'],
      ['active', 'activate'],
      ['active', 'resume'],
      ['suspended', 'activate'],
      ['suspended', 'suspend'],
      ['revoked', 'activate'],
      ['revoked', 'resume'],
      ['revoked', 'suspend'],
    ] as const;
    for (const [from, move] of invalid) expect(consentMove(from, move).kind).toBe('invalid');
  });

  it('bounds a consent at ten years, leap days as PostgreSQL counts them', () => {
    expect(withinConsentSpan('2026-01-01', '2036-01-01')).toBe(true);
    expect(withinConsentSpan('2026-01-01', '2036-01-02')).toBe(false);
    expect(withinConsentSpan('2028-02-29', '2038-02-28')).toBe(true);
    expect(withinConsentSpan('2028-02-29', '2038-03-01')).toBe(false);
  });
});

describe('the character gate', () => {
  it('lets a covered likeness use through and names the version', () => {
    expect(judgeCharacterUse(likeness(), { ...use, use: 'advertising', channel: 'social', territory: 'us' })).toEqual({
      usable: true,
      reasons: [],
      version: 1,
    });
  });

  it('needs no subject or consent for a synthetic character', () => {
    expect(
      judgeCharacterUse(
        likeness({
          format: 'synthetic',
          subject: null,
          consents: [],
          versions: [{ number: 2, subjectId: null, retired: false, bindings: [] }],
        }),
        use,
      ),
    ).toEqual({ usable: true, reasons: [], version: 2 });
  });

  it('names why a consent does not cover the use', () => {
    expect(judgeCharacterUse(likeness({ consents: [consent({ status: 'revoked' })] }), use).reasons).toEqual(['consent_revoked']);
    expect(judgeCharacterUse(likeness({ consents: [consent({ status: 'pending' })] }), use).reasons).toEqual(['consent_pending']);
    expect(judgeCharacterUse(likeness({ consents: [consent({ status: 'suspended' })] }), use).reasons).toEqual(['consent_suspended']);
    expect(judgeCharacterUse(likeness(), { ...use, on: '2028-01-01' }).reasons).toEqual(['consent_expired']);
    expect(judgeCharacterUse(likeness(), { ...use, on: '2025-12-31' }).reasons).toEqual(['consent_not_started']);
    expect(judgeCharacterUse(likeness(), { ...use, territory: 'FR' }).reasons).toEqual(['territory_not_covered']);
    expect(judgeCharacterUse(likeness(), { ...use, channel: 'tv', use: 'editorial' }).reasons).toEqual([
      'use_not_covered',
      'channel_not_covered',
    ]);
    expect(judgeCharacterUse(likeness(), { ...use, media: 'voice' }).reasons).toEqual(['consent_missing', 'provider_consent_missing']);
    expect(judgeCharacterUse(likeness({ consents: [] }), use).reasons).toEqual(['consent_missing']);
  });

  it('is usable when any one consent covers the use', () => {
    const facts = likeness({
      consents: [consent({ status: 'revoked' }), consent({ scope: { uses: ['*'], media: ['*'], channels: ['*'], territories: ['*'] } })],
    });
    expect(judgeCharacterUse(facts, { ...use, territory: 'FR' }).usable).toBe(true);
  });

  it('needs an accepted provider copy for every provider, or not_required on a photo-based asset', () => {
    const version = (status: 'accepted' | 'pending' | 'refused' | 'not_required', photoBased = false, disabled = false) =>
      likeness({
        versions: [
          {
            number: 1,
            subjectId: 's1',
            retired: false,
            bindings: [{ provider: 'local', assetKind: 'likeness', photoBased, providerConsentStatus: status, disabled }],
          },
        ],
      });
    expect(judgeCharacterUse(version('pending'), use).reasons).toEqual(['provider_consent_missing']);
    expect(judgeCharacterUse(version('refused'), use).reasons).toEqual(['provider_consent_missing']);
    expect(judgeCharacterUse(version('not_required', false), use).reasons).toEqual(['provider_consent_missing']);
    expect(judgeCharacterUse(version('not_required', true), use).usable).toBe(true);
    expect(judgeCharacterUse(version('accepted', false, true), use).reasons).toEqual(['provider_consent_missing']);
    expect(judgeCharacterUse(version('accepted'), { ...use, providers: ['local', 'openai'] }).reasons).toEqual([
      'provider_consent_missing',
    ]);
  });

  it('judges versions: none, retired, a named one, the newest live one by default', () => {
    expect(judgeCharacterUse(likeness({ versions: [] }), use).reasons).toEqual(['no_version']);
    const two = likeness({
      versions: [
        {
          number: 1,
          subjectId: 's1',
          retired: false,
          bindings: [{ provider: 'local', assetKind: 'likeness', photoBased: false, providerConsentStatus: 'accepted', disabled: false }],
        },
        { number: 2, subjectId: 's1', retired: true, bindings: [] },
      ],
    });
    expect(judgeCharacterUse(two, use)).toEqual({ usable: true, reasons: [], version: 1 });
    expect(judgeCharacterUse(two, { ...use, versionNumber: 2 })).toMatchObject({
      usable: false,
      reasons: ['version_retired'],
      version: null,
    });
    expect(judgeCharacterUse(two, { ...use, versionNumber: 7 }).reasons).toEqual(['version_not_found']);
    expect(judgeCharacterUse(null, use)).toEqual({ usable: false, reasons: ['character_not_found'], version: null });
    expect(judgeCharacterUse(likeness({ archived: true, subject: { erased: true } }), use).reasons).toEqual([
      'character_archived',
      'subject_erased',
    ]);
  });

  it("derives a run's use from its workflow, bindings and intake", () => {
    expect(
      runCharacterUse({
        artifactClass: 'video',
        bindings: { a: 'local/video-1', b: 'openai/gpt', c: 'local/text-1' },
        intake: { channel: 'social', use: 5 },
        on: '2026-11-22',
      }),
    ).toEqual({ media: 'video', providers: ['local', 'openai'], on: '2026-11-22', channel: 'social' });
  });
});
