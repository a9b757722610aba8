import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { ParleyError } from './errors.js';
import { ModelSettingsError } from './llm/chat/model-registry.js';
import { DEFAULT_WORKSPACE_NAME } from './domain/workspaces.js';
import { joinWorkspace } from './domain/memberships.js';
import { closeGracefully, openCore, startServer, type Core } from './parley.js';
import type { RunningWorkers } from './workers.js';
import { startMetricsServer, type MetricsServer } from './http/metrics-server.js';
import { backupCommand, restoreCommand } from './backup-commands.js';
import { BackupError } from './store/sqlite/backup-manifest.js';
import { recordedServerUrl } from './recorded-server-url.js';

const USAGE = `Usage: parley <command>

Commands:
  start                  API and background workers in one process (default)
  serve                  API only
  worker                 background workers only
  migrate                apply database migrations and exit
  keys create [--workspace NAME] [--name NAME]
                         create an API key (and the workspace if missing); prints only the key
  keys list [--workspace NAME]
                         list API keys (prefixes only)
  keys delete ID         delete an API key (a workspace's last key cannot be deleted)
  users create --email EMAIL [--name NAME] [--workspace NAME] [--role owner|admin|member]
                         create a dashboard user (and the workspace if missing); prints a link to set the password
  users reset-password --email EMAIL
                         print a one-time link that sets a new password (links use PARLEY_PUBLIC_URL, else
                         the address of the last server started on this PARLEY_DATA_DIR, else PORT)
  backup DIR             copy the embedded store (database and uploaded files) into a new or empty DIR,
                         while Parley runs; on PostgreSQL, use pg_dump instead
  restore DIR [--force]  make the backup in DIR the embedded store of an empty PARLEY_DATA_DIR
                         (--force replaces the store there; stop Parley first)

Configuration comes from environment variables (PORT, HOST, PARLEY_DATA_DIR, PARLEY_DATABASE_URL, …);
the README lists them all.`;

/** A mistake in how the CLI was called: print it with the usage and exit 2. */
class UsageError extends Error {}

/**
 * Keeps the process alive until SIGINT/SIGTERM, then runs `shutdown` once; a second signal while it runs
 * stops the process at once (Ctrl-C twice).
 */
function closeOnSignal(shutdown: () => Promise<void>): void {
  let closing = false;
  const onSignal = () => {
    if (closing) {
      console.error('parley: stopped before the shutdown finished');
      process.exit(1);
    }
    closing = true;
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** Loaded by the commands that run workers only: `keys` and the like start without the ingestion modules. */
async function startWorkers(config: Config, core: Core): Promise<RunningWorkers> {
  const workers = await import('./workers.js');
  return workers.startWorkers(config, core, (error) => console.error('parley worker:', error));
}

async function serve(config: Config, core: Core, { withWorkers }: { withWorkers: boolean }): Promise<void> {
  // The model loads while the rest starts; the server listens (reports ready) once it has.
  const preloaded = core.preload({ search: true });
  const firstKey = withWorkers ? await core.services.workspaces.bootstrap() : undefined;
  const workers = withWorkers ? await startWorkers(config, core) : undefined;
  await preloaded;
  const { app, url } = await startServer(config, core);
  const lines = [
    '',
    `Parley is running (${config.store.kind === 'sqlite' ? `embedded store ${config.store.file}` : 'PostgreSQL store'})`,
    `  API base URL:  ${url}`,
    `  API docs:      ${url}/docs`,
  ];
  if (firstKey !== undefined) {
    lines.push(`  API key:       ${firstKey.secret}`, `                 (workspace "${DEFAULT_WORKSPACE_NAME}"; shown only this once, keep it)`);
  } else if (withWorkers) {
    lines.push('  API key:       made on the first start; create another with `npx parley keys create`');
  }
  lines.push(`  Try:           curl -H "Authorization: Bearer $KEY" ${url}/agents`);
  // Links in the terminal use the address the server really got (PORT=0 picks one).
  const base = config.port === 0 ? url : config.events.publicUrl;
  lines.push(`  Dashboard:     ${base}/dashboard/`);
  const setup = await core.services.accounts.setupLink();
  if (setup !== undefined) {
    lines.push(
      `  Setup link:    ${base}/dashboard/setup?token=${setup.token}`,
      '                 (creates the owner account; works once, for 24 hours)',
    );
  }
  const metrics = await startMetricsPort(config);
  if (metrics !== undefined) lines.push(`  Metrics:       ${metrics.url}`);
  lines.push('');
  console.log(lines.join('\n'));
  closeOnSignal(async () => {
    // Requests first (they may still write), then jobs, which go back to the queue unspent.
    await closeGracefully(app, config.server.shutdownTimeoutMs);
    await workers?.stop();
    await metrics?.close();
    await core.close();
  });
}

/** `GET /metrics` on PARLEY_METRICS_PORT, when one is set. */
async function startMetricsPort(config: Config): Promise<MetricsServer | undefined> {
  const { port, host } = config.metrics;
  return port === null ? undefined : startMetricsServer({ port, host });
}

async function work(config: Config, core: Core): Promise<void> {
  const preloaded = core.preload({ search: false });
  const workers = await startWorkers(config, core);
  await preloaded;
  const metrics = await startMetricsPort(config);
  console.log(`Parley worker ${workers.owner} running ${config.jobs.concurrency} jobs at a time; stop it with Ctrl-C`);
  if (metrics !== undefined) console.log(`  Metrics: ${metrics.url}`);
  closeOnSignal(async () => {
    await workers.stop();
    await metrics?.close();
    await core.close();
  });
}

async function keys(core: Core, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { workspace: { type: 'string' }, name: { type: 'string' } },
  });
  const [action, id] = positionals;
  const { services, store } = core;
  switch (action) {
    case 'create': {
      const { workspace } = await services.workspaces.findOrCreate(values.workspace ?? DEFAULT_WORKSPACE_NAME);
      const { secret } = await services.keys.issue(workspace.id, values.name);
      console.log(secret);
      return;
    }
    case 'list': {
      const workspaces = await store.workspaces.list();
      for (const workspace of workspaces.filter((w) => values.workspace === undefined || w.name === values.workspace)) {
        for (const key of await services.keys.list(workspace.id)) {
          console.log([key.id, `${key.prefix}…`, key.name, workspace.name, key.createdAt, key.lastUsedAt ?? 'never used'].join('\t'));
        }
      }
      return;
    }
    case 'delete': {
      if (id === undefined) throw new UsageError('keys delete needs the key id (see `parley keys list`)');
      const workspaceId = await store.apiKeys.ownerOf(id);
      if (workspaceId === undefined) throw new UsageError(`No API key with id ${id}`);
      await services.keys.revoke(workspaceId, id);
      console.log(`Deleted key ${id}`);
      return;
    }
    default:
      throw new UsageError(`Unknown keys action "${action ?? ''}"`);
  }
}

const ROLES = ['owner', 'admin', 'member'] as const;

/** Headless user management: `users create` and `users reset-password`, each printing a one-time link. */
async function users(config: Config, core: Core, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' }, workspace: { type: 'string' }, role: { type: 'string' } },
  });
  const [action] = positionals;
  const { accounts, workspaces } = core.services;
  if (values.email === undefined) throw new UsageError(`users ${action ?? ''} needs --email`);
  // Without PARLEY_PUBLIC_URL, links go to where the server on this data directory answered last.
  const recorded = await recordedServerUrl(config.dataDir);
  if (recorded !== undefined) core.useServerUrl(recorded);
  switch (action) {
    case 'create': {
      const role = ROLES.find((candidate) => candidate === (values.role ?? 'owner'));
      if (role === undefined) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      const { workspace } = await workspaces.findOrCreate(values.workspace ?? DEFAULT_WORKSPACE_NAME);
      const user = await accounts.ensureUser(values.email, values.name ?? '');
      await joinWorkspace(core.store, workspace.id, user, role);
      const link = await accounts.passwordResetLink(user.email);
      console.log(
        `${user.email} is ${role === 'admin' ? 'an admin' : `a ${role}`} of "${workspace.name}". Set the password (once, within 24 hours):\n${link.url}`,
      );
      return;
    }
    case 'reset-password': {
      const link = await accounts.passwordResetLink(values.email);
      console.log(`Set a new password for ${values.email} (once, within 24 hours):\n${link.url}`);
      return;
    }
    default:
      throw new UsageError(`Unknown users action "${action ?? ''}"`);
  }
}

async function run(argv: string[]): Promise<void> {
  const [command = 'start', ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return;
  }
  if (!['start', 'serve', 'worker', 'migrate', 'keys', 'users', 'backup', 'restore'].includes(command)) {
    throw new UsageError(`Unknown command "${command}"`);
  }
  const config = loadConfig();
  // Before the store is opened: a restore must find it closed, and a backup reads it as it is.
  if (command === 'backup' || command === 'restore') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
    const [folder] = positionals;
    if (folder === undefined) throw new UsageError(`${command} needs the backup folder`);
    return command === 'backup' ? backupCommand(config, folder) : restoreCommand(config, folder, { force: values.force });
  }
  const core = await openCore(config);
  switch (command) {
    case 'start':
    case 'serve':
      return serve(config, core, { withWorkers: command === 'start' });
    case 'worker':
      return work(config, core);
    case 'migrate':
      console.log('Migrations applied; the store is up to date');
      return core.close();
    case 'keys':
    case 'users':
      try {
        await (command === 'keys' ? keys(core, rest) : users(config, core, rest));
      } finally {
        await core.close();
      }
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`parley: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof ModelSettingsError || error instanceof BackupError || ParleyError.isInstance(error)) {
    // The operator's own terminal: what a dependency said (the refused address) is theirs to read.
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    console.error(`parley: ${error.message}${cause}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
