/**
 * `atelier init` and `atelier login`: from nothing to a saved login. init registers (or signs in when
 * the account exists), creates an API key and saves it where login saves one; login saves a key you
 * already have.
 */
import { hostname } from 'node:os';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { createAtelierClient } from '@atelier/client';
import { EXIT, Exit, type GlobalFlags, UsageError, ok, print, printJson } from './cli-kit.js';
import { credentialsPath, defaultUrl, gatewayOrigin, saveCredentials } from './credentials.js';

const home = (file: string) => (process.env.HOME ? file.replace(process.env.HOME, '~') : file);

/** The gateway a login is for: --url, else ATELIER_URL, else the one `atelier dev` prints. */
const gatewayUrl = (flags: GlobalFlags) => gatewayOrigin(flags.url || process.env.ATELIER_URL || defaultUrl());

/** Asks on the terminal; `hidden` echoes nothing (a password). */
async function ask(question: string, hidden = false): Promise<string> {
  if (!hidden) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return (await rl.question(question)).trim();
    } finally {
      rl.close();
    }
  }
  process.stdout.write(question);
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stdout.write('\n');
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new UsageError('cancelled'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function readStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk;
  return text.replace(/\r?\n$/, '');
}

interface InitOptions extends GlobalFlags {
  email?: string;
  password?: string;
  passwordStdin?: boolean;
  name?: string;
  keyName?: string;
  json?: boolean;
}

export function registerAccountCommands(program: Command, setCode: (code: number) => void, state: { json: boolean }): void {
  program
    .command('init')
    .description(
      `get started: register (or sign in when the account exists), create an API key and save the login to ${home(credentialsPath())}`,
    )
    .usage('[--email <email>] [--password <password> | --password-stdin] [--name <name>] [--url <url>]')
    .option('--email <email>', 'your email (asked for at a terminal)')
    .option('--password <password>', 'your password, at least 12 characters (else --password-stdin, ATELIER_PASSWORD, or asked for)')
    .option('--password-stdin', 'read the password from stdin')
    .option('--name <name>', 'your name, for a new account (default: the part of the email before @)')
    .option('--key-name <name>', 'what to call the API key (default: "atelier CLI on <host>")')
    .option('--json', 'print what was done as JSON (the key’s secret included)')
    .addHelpText(
      'after',
      `\nAt a terminal it asks for what the flags do not give; otherwise --email and a password are required.\nThe gateway: --url, else ATELIER_URL, else ${defaultUrl()} (where \`npm start\` serves it).`,
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<InitOptions>();
      state.json = Boolean(opts.json);
      const url = gatewayUrl(opts);
      const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY) && !opts.passwordStdin;
      const email = opts.email || process.env.ATELIER_EMAIL || (interactive ? await ask('Email: ') : '');
      if (!email) throw new UsageError('init needs --email (or ATELIER_EMAIL) when it cannot ask at a terminal');
      const password =
        opts.password ||
        (opts.passwordStdin ? await readStdin() : '') ||
        process.env.ATELIER_PASSWORD ||
        (interactive ? await ask('Password (new account: at least 12 characters): ', true) : '');
      if (!password)
        throw new UsageError('init needs a password: --password, --password-stdin or ATELIER_PASSWORD when it cannot ask at a terminal');

      const suggested = email.split('@')[0] || email;
      const name = opts.name || (interactive ? (await ask(`Your name, for a new account [${suggested}]: `)) || suggested : suggested);

      // No key yet: the auth endpoints take none.
      const anonymous = createAtelierClient({ baseUrl: url, apiKey: 'none' });
      let registered = true;
      const attempt = await anonymous.POST('/v1/auth/register', { body: { email, password, name } });
      let session = attempt.data;
      if (!session) {
        const code = (attempt.error as { detail?: { code?: string } } | undefined)?.detail?.code;
        if (attempt.response.status !== 409 || code !== 'email_taken') ok(attempt, 'POST /v1/auth/register');
        registered = false;
        const signIn = await anonymous.POST('/v1/auth/login', { body: { email, password } });
        if (signIn.response.status === 401) {
          // The email is registered and this password is not its password: nothing about API keys to suggest.
          process.stderr.write(
            opts.json
              ? `${JSON.stringify(signIn.error ?? null, null, 2)}\n`
              : `error: an account with ${email} exists and this is not its password\n  (POST /v1/auth/login answered 401)\n`,
          );
          throw new Exit(EXIT.api);
        }
        session = ok(signIn, 'POST /v1/auth/login');
      }

      const signedIn = createAtelierClient({ baseUrl: url, apiKey: session.accessToken });
      const keyName = opts.keyName || `atelier CLI on ${hostname()}`.slice(0, 200);
      const key = ok(await signedIn.POST('/v1/api-keys', { body: { name: keyName } }), 'POST /v1/api-keys');
      const file = await saveCredentials({ url, apiKey: key.secret });

      if (opts.json) {
        printJson({
          url,
          user: session.user,
          registered,
          apiKey: { id: key.id, name: key.name, prefix: key.prefix, secret: key.secret },
          savedTo: file,
        });
      } else {
        print(
          registered
            ? `registered ${email} (${session.user.name}) at ${url}`
            : `signed in as ${email} at ${url} (the account already existed)`,
        );
        print(`created API key "${key.name}": ${key.secret}`);
        print('  its secret is shown this once: the gateway keeps only a hash of it and cannot show it again');
        print(`saved the login (URL and key) to ${file} (mode 0600); atelier commands use it from now on`);
        print('\nNext: atelier runs start plan-research-report --set topic="tide pools" --watch');
      }
      setCode(0);
    });

  program
    .command('login')
    .description(`save a gateway URL and API key to ${home(credentialsPath())} (mode 0600)`)
    .usage('--api-key <key> [--url <url>] [--no-verify]')
    .option('--no-verify', 'save without checking the key against the gateway')
    .addHelpText(
      'after',
      `\n--api-key is an atl_ key (\`atelier init\` makes one, as does POST /v1/api-keys); --url defaults to ATELIER_URL, else ${defaultUrl()}.`,
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalFlags & { verify: boolean }>();
      if (!opts.apiKey) throw new UsageError('login needs --api-key (`atelier init` creates one)');
      const url = gatewayUrl(opts);
      if (opts.verify) {
        const me = await createAtelierClient({ baseUrl: url, apiKey: opts.apiKey }).GET('/v1/users/me');
        const user = ok(me, 'GET /v1/users/me');
        print(`authenticated as ${user.email} at ${url}`);
      }
      print(`saved to ${await saveCredentials({ url, apiKey: opts.apiKey })}`);
      setCode(0);
    });
}
