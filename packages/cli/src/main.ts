#!/usr/bin/env node
/** The `atelier` command. */
import { runCli } from './program.js';

// Commander (program.ts) parses every command line, serves the API commands and hands the operator ones to
// operator-main.ts. That module loads Temporal's native worker, PostgreSQL's driver and the stacks, about
// a second and a half of a command's start: imported only when an operator command runs, so that
// `atelier runs list` starts in a fraction of that.
runCli(process.argv.slice(2), async (argv) => (await import('./operator-main.js')).main(argv)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
