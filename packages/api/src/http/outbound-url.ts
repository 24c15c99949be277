import { type EgressPolicy, EgressRefused, checkEgressTarget, egressPolicyFromEnv } from '@atelier/egress';
import { fail } from '../errors.js';
import type { Caller } from '../caller.js';

/** The gateway's policy for URLs callers name as targets: the one it was given, or production's from the environment. */
export const egressPolicyOf = (caller: Caller): EgressPolicy => caller.services.egress ?? egressPolicyFromEnv(process.env);

/**
 * Refuses a target URL (a webhook endpoint's url, a publication's revalidateUrl) when it is named, by the
 * rules its sends would meet later: a 422 at `loc` with the egress policy's one message, whatever the host
 * was (internal by address or by name, or not resolving at all). Why it was refused goes to the log only.
 */
export async function requireSendableUrl(caller: Caller, url: string, loc: Array<string | number>): Promise<void> {
  try {
    await checkEgressTarget(url, egressPolicyOf(caller));
  } catch (err) {
    if (!(err instanceof EgressRefused)) throw err;
    caller.services.logger.info({ url, loc, reason: err.reason, detail: err.detail }, 'target url refused by the egress policy');
    throw fail.validation([{ type: 'url_not_allowed', loc, msg: err.message, input: url }]);
  }
}
