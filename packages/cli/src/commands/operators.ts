import { userInfo } from 'node:os';
import { type Db, grantPlatformOperator, listPlatformOperators, revokePlatformOperator } from '@atelier/db';

/**
 * The one way to make someone a platform operator (the role behind /v1/ops): a person with access to
 * the database runs `atelier operators grant <email>`. No API grants it, so no API caller can make
 * themselves an operator.
 */
export async function grantOperatorCommand(db: Db, email: string): Promise<number> {
  let who = 'cli';
  try {
    who = `cli:${userInfo().username}`;
  } catch {
    // no user name on this system
  }
  const outcome = await grantPlatformOperator(db, email, who);
  if (outcome === 'no_user') {
    console.error(`no user with email ${email}; they must register first`);
    return 1;
  }
  console.log(outcome === 'granted' ? `${email} is now a platform operator` : `${email} was already a platform operator`);
  return 0;
}

export async function revokeOperatorCommand(db: Db, email: string): Promise<number> {
  const outcome = await revokePlatformOperator(db, email);
  if (outcome === 'no_user') {
    console.error(`no user with email ${email}`);
    return 1;
  }
  console.log(outcome === 'revoked' ? `${email} is no longer a platform operator` : `${email} was not a platform operator`);
  return 0;
}

export async function listOperatorsCommand(db: Db): Promise<number> {
  const operators = await listPlatformOperators(db);
  if (operators.length === 0) console.log('no platform operators');
  for (const o of operators) console.log(`${o.email}\tgranted ${o.granted_at.toISOString()} by ${o.granted_by}`);
  return 0;
}
