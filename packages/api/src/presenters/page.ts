/** A list endpoint's answer: the page's rows as `present` words each, and how many match in all. */
export const presentPage = <R, T>(page: { items: R[]; total: number }, present: (row: R) => T) => ({
  items: page.items.map((row) => present(row)),
  total: page.total,
});
