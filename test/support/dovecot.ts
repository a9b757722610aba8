import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';

const DOVECOT = process.env.PARLEY_TEST_DOVECOT ?? '/usr/sbin/dovecot';
const DOVEADM = join(DOVECOT, '..', '..', 'bin', 'doveadm');

/**
 * A private Dovecot (IMAP only, no TLS) per test file: its own config, mail, sockets and log in a temp
 * directory, on a free loopback port, run in the foreground as a child process. As root the mail
 * processes run as `nobody` (Dovecot refuses mail access as uid 0); otherwise as the current user.
 */
export class PrivateDovecot {
  readonly user = 'parley';
  readonly password = 'imap-secret';

  private constructor(
    readonly port: number,
    readonly dir: string,
    readonly process: ChildProcess,
  ) {}

  /** `extraConfig`: lines appended to the config (`imap_capability = …` to play a server without IDLE). */
  static async start(extraConfig: readonly string[] = []): Promise<PrivateDovecot> {
    const dir = await mkdtemp(join(tmpdir(), 'parley-dovecot-'));
    const port = await freePort();
    const asRoot = process.getuid?.() === 0;
    const account = asRoot ? { name: 'nobody', uid: 65_534, gid: 65_534 } : { name: userInfo().username, uid: userInfo().uid, gid: userInfo().gid };
    await mkdir(join(dir, 'run'));
    await mkdir(join(dir, 'state'));
    await mkdir(join(dir, 'mail'));
    // The mail processes (as `nobody`) must reach their maildir through the temp dir mkdtemp made 0700.
    await chmod(dir, 0o755);
    if (asRoot) await chown(join(dir, 'mail'), account.uid, account.gid);
    const users = join(dir, 'users');
    await writeFile(users, `parley:{PLAIN}imap-secret:${account.uid}:${account.gid}::${join(dir, 'mail', 'parley')}::\n`);
    const config = join(dir, 'dovecot.conf');
    await writeFile(
      config,
      [
        'protocols = imap',
        'listen = 127.0.0.1',
        `base_dir = ${join(dir, 'run')}`,
        `state_dir = ${join(dir, 'state')}`,
        `instance_name = parley-test-${port}`,
        `log_path = ${join(dir, 'dovecot.log')}`,
        'ssl = no',
        'disable_plaintext_auth = no',
        'auth_mechanisms = plain login',
        // A refused login is answered at once, not after Dovecot's usual 2 s.
        'auth_failure_delay = 0',
        `default_login_user = ${account.name}`,
        `default_internal_user = ${account.name}`,
        // Unprivileged, Dovecot can give its sockets only to our own group (the default is the `dovecot` group).
        ...(asRoot ? [] : [`default_internal_group = ${execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim()}`]),
        'first_valid_uid = 1',
        'passdb {',
        '  driver = passwd-file',
        `  args = scheme=PLAIN username_format=%u ${users}`,
        '}',
        'userdb {',
        '  driver = passwd-file',
        `  args = username_format=%u ${users}`,
        '}',
        `mail_location = maildir:${join(dir, 'mail')}/%u`,
        // No chroot: it needs root, and the login processes must find the sockets in base_dir.
        'service imap-login {',
        '  chroot =',
        '  inet_listener imap {',
        '    address = 127.0.0.1',
        `    port = ${port}`,
        '  }',
        '  inet_listener imaps {',
        '    port = 0',
        '  }',
        '}',
        ...extraConfig,
        'service anvil {',
        '  chroot =',
        // Nor does it hold the next logins back after one was refused: without this socket there is no auth penalty.
        '  unix_listener anvil-auth-penalty {',
        '    mode = 0',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const child = spawn(DOVECOT, ['-F', '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const dovecot = new PrivateDovecot(port, dir, child);
    try {
      await waitForGreeting(port, child, () => stderr);
    } catch (error) {
      await dovecot.close();
      throw error;
    }
    return dovecot;
  }

  /** A client of the test user's mailbox, connected; the caller logs it out. */
  async client(): Promise<ImapFlow> {
    const client = new ImapFlow({ host: '127.0.0.1', port: this.port, secure: false, auth: { user: this.user, pass: this.password }, logger: false });
    await client.connect();
    return client;
  }

  /** Puts `raw` into `mailbox` as a mail server's delivery would (IMAP APPEND). */
  async deliver(raw: string | Buffer, mailbox = 'INBOX'): Promise<void> {
    const client = await this.client();
    try {
      await client.append(mailbox, typeof raw === 'string' ? Buffer.from(raw.replace(/\r?\n/g, '\r\n')) : raw);
    } finally {
      await client.logout();
    }
  }

  /** Ends every session of the test user, as a server restart or an idle timeout would. */
  async kick(): Promise<void> {
    const doveadm = spawn(DOVEADM, ['-c', join(this.dir, 'dovecot.conf'), 'kick', this.user], { stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => doveadm.once('exit', resolve));
    if (code !== 0) throw new Error(`doveadm kick exited with ${code}`);
  }

  log(): Promise<string> {
    return readFile(join(this.dir, 'dovecot.log'), 'utf8').catch(() => '');
  }

  async close(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
      this.process.kill('SIGTERM');
      await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref())]);
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Waits until Dovecot's login process greets on `port`, or fails with what Dovecot said when it exits first. */
async function waitForGreeting(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}): ${stderr()}`);
    if (await greets(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`dovecot did not answer on port ${port}: ${stderr()}`);
}

function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString();
      if (/\* OK .*ready/.test(data)) done(true);
    });
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
  });
}
