// Preloaded into a process a test starts (NODE_OPTIONS=--import): when the process exits, it writes to
// ATELIER_TEST_ASYNC_HOOKS_REPORT the symbols a promise made in its main thread carries. Once anything has
// turned on Node's async hooks there (an AsyncLocalStorage run, an init hook), every promise carries
// async_hooks' own (async_id_symbol and the like); before, none.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const symbols = Object.getOwnPropertySymbols(Promise.resolve()).map(String);
  writeFileSync(process.env.ATELIER_TEST_ASYNC_HOOKS_REPORT, JSON.stringify({ symbols }));
});
