/**
 * The `atelier` command line, built with commander. User commands (runs, orders, queue, artifacts,
 * workflows) are clients of the HTTP API with an API key; operator commands (dev, api, worker, migrate,
 * operators, runs reset/finalize, workflows validate) need Temporal or PostgreSQL and are handed to
 * main.ts unchanged.
 *
 * Exit codes: 0 ok; 1 a watched run or order ended without success (failed, cancelled, rejected,
 * changes_requested, attention); 2 usage; 3 an API error (its body on stderr) or an unreachable gateway.
 */
import { Command, CommanderError, Option } from 'commander';
import { AtelierApiError, type AtelierClient, createAtelierClient } from '@atelier/client';
import { type CommandContext, EXIT, Exit, type GlobalFlags, type OperatorMain, UsageError } from './api/cli-kit.js';
import { registerAccountCommands } from './api/account-commands.js';
import { defaultUrl, resolveCredentials } from './api/credentials.js';
import { ApiFailure, apiErrorText } from './api/errors.js';
import { registerOrderCommands } from './api/order-commands.js';
import { registerReviewCommands } from './api/review-commands.js';
import { registerRunCommands } from './api/run-commands.js';
import { registerWorkflowCommands } from './api/workflow-commands.js';

export { EXIT } from './api/cli-kit.js';

/** What runCli learns from the command that ran: whether it asked for --json (its errors then print raw). */
export interface RunState {
  json: boolean;
}

export function buildProgram(
  argv: string[],
  operator: OperatorMain,
  setCode: (code: number) => void,
  state: RunState = { json: false },
): Command {
  const program = new Command('atelier');
  program
    .description(
      'Atelier: durable workflow engine for AI content production.\nUser commands talk to the HTTP API with an API key (flags, ATELIER_URL/ATELIER_API_KEY, or `atelier login`);\noperator commands need Temporal and PostgreSQL (see docs/operations.md).',
    )
    .addOption(new Option('--url <url>', `gateway URL (env ATELIER_URL, else the saved login, else ${defaultUrl()})`))
    .addOption(new Option('--api-key <key>', 'API key (env ATELIER_API_KEY, else the saved login)'))
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .addHelpText(
      'after',
      '\nExit codes: 0 ok; 1 a watched run/order ended failed, cancelled or rejected; 2 usage; 3 API error (body on stderr).',
    );

  const clientFor = async (cmd: Command): Promise<AtelierClient> => {
    const flags = cmd.optsWithGlobals<GlobalFlags>();
    const creds = await resolveCredentials(flags);
    if (!creds.apiKey)
      throw new UsageError(
        `no API key: run \`atelier init\` (registers or signs in and saves a key), pass --api-key, set ATELIER_API_KEY, or run \`atelier login --api-key atl_...\``,
      );
    return createAtelierClient({ baseUrl: creds.url, apiKey: creds.apiKey });
  };
  /** Wraps a user command: it gets a client and its options; its return value is the exit code. */
  const act =
    <A extends unknown[]>(fn: (client: AtelierClient, ...args: A) => Promise<number | undefined>) =>
    async (...args: unknown[]) => {
      const cmd = args.at(-1) as Command;
      state.json = Boolean(cmd.opts().json);
      setCode((await fn(await clientFor(cmd), ...(args.slice(0, -1) as A))) ?? EXIT.ok);
    };
  /** Hands an operator command to main.ts as the original argv. */
  const operate = async () => setCode(await operator(argv));

  // ---- init, login ----
  registerAccountCommands(program, setCode, state);

  const ctx: CommandContext = { act, operate };
  registerRunCommands(program, ctx);
  registerOrderCommands(program, ctx);
  registerReviewCommands(program, ctx);
  registerWorkflowCommands(program, ctx);

  // ---- operator commands (main.ts) ----
  program.command('dev').description('start Temporal (dev server), PostgreSQL (embedded), a worker and the API').action(operate);
  program.command('api').description('start the API gateway (needs DATABASE_URL and TEMPORAL_ADDRESS)').action(operate);
  program.command('worker').description('start a worker (needs DATABASE_URL and TEMPORAL_ADDRESS)').action(operate);
  program.command('migrate').description('apply database migrations (DATABASE_URL)').action(operate);
  program
    .command('stack')
    .description('other ways to start the whole stack')
    .command('production')
    .description('the real Temporal Server on PostgreSQL (built and cached on first use), 2 gateways and 3 workers from the compiled build')
    .option('--fresh', 'start from empty data')
    .option('--gateways <n>', 'gateway processes', '2')
    .option('--workers <n>', 'worker processes', '3')
    .action(operate);
  const operators = program.command('operators').description('platform operators (the /v1/ops role), straight in PostgreSQL');
  operators.command('grant').description('make a registered user a platform operator').argument('<email>').action(operate);
  operators.command('revoke').description('take the platform operator role away').argument('<email>').action(operate);
  operators.command('list').description('list platform operators').action(operate);
  return program;
}

/** Runs the command line; resolves with the process exit code. */
export async function runCli(argv: string[], operator: OperatorMain): Promise<number> {
  let code: number = EXIT.ok;
  const state: RunState = { json: false };
  const program = buildProgram(
    argv,
    operator,
    (c) => {
      code = c;
    },
    state,
  );
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.ok;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof Exit) return err.code;
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n`);
      return EXIT.usage;
    }
    if (err instanceof ApiFailure || err instanceof AtelierApiError) {
      const failure = err instanceof ApiFailure ? err : new ApiFailure(err.status, err.body, `${err.method} ${err.path}`);
      process.stderr.write(`${apiErrorText(failure, state.json)}\n`);
      return EXIT.api;
    }
    const cause = (err as { cause?: { code?: string } }).cause;
    if (err instanceof TypeError && (cause?.code === 'ECONNREFUSED' || cause?.code === 'ENOTFOUND' || /fetch failed/.test(err.message))) {
      process.stderr.write(`error: cannot reach the gateway (${cause?.code ?? err.message}); set --url or ATELIER_URL\n`);
      return EXIT.api;
    }
    throw err;
  }
}
