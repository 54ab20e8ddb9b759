// Mailpit (MIT; an SMTP server with a REST API), for testing the SMTP adapter against a server its
// authors wrote rather than a fake of ours. scripts/install-providers.sh builds it once per machine
// into .tools/providers/ (dev/providers/servers.ts runs the installer and spawns it). Each server
// listens on loopback only, keeps its messages in a database of its own in a temporary directory,
// and never calls out by itself: no version check, no reverse DNS of the client, and its link
// checker runs only when a test asks, on the links of that test's message.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../free-port.js';
import { providerExecutable, spawnProviderServer, type ProviderServer } from './servers.js';

export interface MailpitOptions {
  /** Refuses (550) every recipient not matching this regular expression (Mailpit's syntax, Go's RE2). */
  allowedRecipients?: string;
  /** Requires SMTP AUTH with these credentials (PLAIN and LOGIN over plain text, as on loopback). */
  auth?: { user: string; pass: string };
  /** Turns on Mailpit's chaos triggers (`chaos()`), with every trigger off until set. */
  chaos?: boolean;
}

export interface MailpitAddress {
  Name: string;
  Address: string;
}

/** A message as Mailpit lists it (GET /api/v1/messages). */
export interface MailpitSummary {
  ID: string;
  /** The Message-ID header without its angle brackets. */
  MessageID: string;
  From: MailpitAddress;
  To: MailpitAddress[];
  Subject: string;
  Username: string;
}

/** A message as Mailpit parsed it (GET /api/v1/message/{ID}): what a mail client would show. */
export interface MailpitMessage extends MailpitSummary {
  Cc: MailpitAddress[];
  Bcc: MailpitAddress[];
  ReplyTo: MailpitAddress[];
  ReturnPath: string;
  /** The Date header, as Mailpit read it (ISO 8601). */
  Date: string;
  /** The plain-text part, decoded from its transfer encoding and charset. */
  Text: string;
  HTML: string;
  Attachments: unknown[];
  Inline: unknown[];
}

export interface MailpitLinkCheck {
  Errors: number;
  Links: { URL: string; StatusCode: number; Status: string }[];
}

/** An SMTP reply Mailpit's chaos feature gives, with its probability in per cent (0 is off). */
export interface ChaosTrigger {
  ErrorCode: number;
  Probability: number;
}

export interface Mailpit {
  smtpPort: number;
  apiUrl: string;
  /** Every message held, newest first. */
  messages(): Promise<MailpitSummary[]>;
  /** Mailpit's search (https://mailpit.axllent.org/docs/usage/search-filters/), newest first. */
  search(query: string): Promise<MailpitSummary[]>;
  message(id: string): Promise<MailpitMessage>;
  /** The headers as received, each name canonicalised by Mailpit (Message-Id, Mime-Version). */
  headers(id: string): Promise<Record<string, string[]>>;
  /** The message exactly as it arrived over SMTP (after Mailpit's own Received and Return-Path). */
  raw(id: string): Promise<string>;
  /** Mailpit requests every link it finds in the message and says what each answered. */
  linkCheck(id: string): Promise<MailpitLinkCheck>;
  /** Sets chaos triggers (needs `chaos: true`); those not named are left as they are. */
  chaos(triggers: Partial<Record<'Sender' | 'Recipient' | 'Authentication', ChaosTrigger>>): Promise<void>;
  /** Mailpit's counters of SMTP messages accepted and rejected since it started. */
  smtpStats(): Promise<{ accepted: number; rejected: number }>;
  /** Deletes every message. */
  clear(): Promise<void>;
  /** Stops the server and removes its database (idempotent). */
  stop(): Promise<void>;
}

/** Builds Mailpit if this machine has none yet, then starts it on free loopback ports. */
export async function startMailpit(opts: MailpitOptions = {}): Promise<Mailpit> {
  const command = await providerExecutable('mailpit');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mailpit-'));
  try {
    const [httpPort, smtpPort] = await distinctFreePorts();
    const args = [
      '--listen',
      `127.0.0.1:${httpPort}`,
      '--smtp',
      `127.0.0.1:${smtpPort}`,
      '--database',
      path.join(dir, 'mailpit.db'),
      '--quiet',
      // Its web UI asks GitHub for the latest release; nothing of the test's should leave the machine.
      '--disable-version-check',
      '--smtp-disable-rdns',
      // Stricter than its default: a header line with a bare CR is refused, as strict relays do.
      '--smtp-strict-rfc-headers',
      // The links under test point at a loopback server of the test's own: let its checker reach them.
      '--allow-internal-http-requests',
      '--disable-link-check-rate-limit',
    ];
    if (opts.allowedRecipients) args.push('--smtp-allowed-recipients', opts.allowedRecipients);
    if (opts.auth) {
      const file = path.join(dir, 'smtp-auth');
      await writeFile(file, `${opts.auth.user}:${opts.auth.pass}\n`, { mode: 0o600 });
      args.push('--smtp-auth-file', file, '--smtp-auth-allow-insecure');
    }
    if (opts.chaos) args.push('--enable-chaos');
    const server = await spawnProviderServer({
      name: 'mailpit',
      command,
      port: httpPort,
      args: () => args,
      // Ready when the API says so and the SMTP port greets: the two listeners start separately.
      ready: async (url) => (await fetch(`${url}/readyz`)).ok && (await smtpGreets(smtpPort)),
    });
    return handle(server, dir, smtpPort);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Two ports for one server: freePort closes each probe, so the second could otherwise repeat the first. */
async function distinctFreePorts(): Promise<[number, number]> {
  const first = await freePort();
  for (let attempt = 0; attempt < 20; attempt++) {
    const second = await freePort();
    if (second !== first) return [first, second];
  }
  throw new Error('freePort kept answering one port');
}

/** Whether a connection to the port gets an SMTP 220 greeting; says QUIT either way. */
function smtpGreets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.removeAllListeners();
      socket.on('error', () => {});
      if (ok) socket.end('QUIT\r\n');
      else socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (d: Buffer) => done(d.toString().startsWith('220')));
  });
}

function handle(server: ProviderServer, dir: string, smtpPort: number): Mailpit {
  const apiUrl = server.url;
  async function api<T>(pathname: string, init?: RequestInit): Promise<T> {
    const res = await fetch(`${apiUrl}${pathname}`, init);
    if (!res.ok)
      throw new Error(`Mailpit ${init?.method ?? 'GET'} ${pathname}: HTTP ${res.status} ${await res.text()}`);
    const type = res.headers.get('content-type') ?? '';
    return (type.includes('json') ? await res.json() : await res.text()) as T;
  }
  const list = async (pathname: string) => (await api<{ messages: MailpitSummary[] }>(pathname)).messages;
  let stopping: Promise<void> | null = null;
  return {
    smtpPort,
    apiUrl,
    messages: () => list('/api/v1/messages'),
    search: (query) => list(`/api/v1/search?query=${encodeURIComponent(query)}`),
    message: (id) => api(`/api/v1/message/${id}`),
    headers: (id) => api(`/api/v1/message/${id}/headers`),
    raw: (id) => api(`/api/v1/message/${id}/raw`),
    linkCheck: (id) => api(`/api/v1/message/${id}/link-check`),
    chaos: async (triggers) => {
      await api('/api/v1/chaos', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(triggers),
      });
    },
    smtpStats: async () => {
      const info = await api<{ RuntimeStats: { SMTPAccepted: number; SMTPRejected: number } }>('/api/v1/info');
      return { accepted: info.RuntimeStats.SMTPAccepted, rejected: info.RuntimeStats.SMTPRejected };
    },
    clear: async () => {
      await api('/api/v1/messages', { method: 'DELETE' });
    },
    stop: () => (stopping ??= server.stop().then(() => rm(dir, { recursive: true, force: true }))),
  };
}
