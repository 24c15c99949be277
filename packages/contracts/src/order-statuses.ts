/**
 * An order's statuses: planned, then running; attention when children failed; then settled. Apart from
 * orders.ts so that the CLI can offer them without loading zod.
 */
export const ORDER_STATUSES = ['planned', 'running', 'attention', 'completed', 'failed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
