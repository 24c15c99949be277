/**
 * Times as the API answers them: ISO 8601 in UTC. Rows read through raw SQL (the webhook tables' joins)
 * can carry a timestamp as a string rather than a Date, so both are accepted; a column that is never null
 * gets a string back without a non-null assertion at each use. A value absent from a row reads as null.
 */
export function iso(d: Date | string): string;
export function iso(d: Date | string | null): string | null;
export function iso(d: Date | string | null): string | null {
  return d == null ? null : new Date(d).toISOString();
}
