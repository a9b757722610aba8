import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelConnectionBody, ConnectionTestResultBody } from '../../src/contract/channel-connections.js';
import type { ConversationBody, ErrorBody, ListedConversationBody } from '../support/bodies.js';
import { waitForDatasource } from '../support/datasources.js';
import { PrivateDovecot } from '../support/dovecot.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { storedBytes } from '../support/stored-bytes.js';
import { SmtpSink, type ReceivedMail } from '../support/smtp-sink.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { rawMail } from '../channels/mail/raw-mail.js';

const HOURS = 'The shop opens at 9 am and closes at 6 pm, Monday to Saturday. On Sundays the shop is closed.';
const SUPPORT = 'support@shop.example';
const SMTP_SECRET = 'smtp-pass-8c1e4f0b2d';
const WRONG_IMAP_SECRET = 'not-the-imap-pass-55d1';
/** PARLEY_CHANNEL_ATTACHMENT_MAX_MB as the test sets it: 10 485 bytes. */
const ATTACHMENT_CAP_MB = '0.01';

/** A small PDF, as a customer attaches a receipt. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n' +
    'trailer << /Root 1 0 R >>\n%%EOF\n' +
    'x'.repeat(1500),
);

/**
 * E-mail end to end (README, "Channels"): an agent connected to an address; customers' mail sent with
 * nodemailer to Parley's SMTP listener, or delivered into a mailbox Parley reads over IMAP (a private
 * Dovecot); replies out through a real SMTP server (the sink), threaded; automatic mail never answered;
 * attachments kept and downloadable; passwords sealed at rest.
 */
describe.each(STORE_KINDS)('an e-mail address connected to an agent, on %s', (kind) => {
  let parley: TestParley;
  let sink: SmtpSink;
  let dovecot: PrivateDovecot;
  let ws: Workspace;
  let agentId: string;
  let connection: ChannelConnectionBody;
  const seen: unknown[] = [];

  beforeAll(async () => {
    sink = await SmtpSink.start();
    dovecot = await PrivateDovecot.start();
  });
  afterAll(async () => {
    await sink?.close();
    await dovecot?.close();
  });

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, {
      workers: true,
      env: {
        PARLEY_MAIL_INBOUND_PORT: '0',
        PARLEY_MAIL_INBOUND_HOST: '127.0.0.1',
        PARLEY_CHANNEL_ATTACHMENT_MAX_MB: ATTACHMENT_CAP_MB,
        // A failed mailbox poll is tried again soon, not after 5 s.
        PARLEY_JOB_RETRY_BASE_SECONDS: '0.2',
      },
    });
    ws = await parley.newWorkspace();
    agentId = await newAgent(ws, 'Shop mail');
  });

  const newAgent = async (workspace: Workspace, name: string): Promise<string> => {
    const datastore = await parley.call<{ id: string }>('POST', '/datastores', { key: workspace.key, body: { name: `${name} help` } });
    const source = await parley.call<{ id: string }>('POST', '/datasources', {
      key: workspace.key,
      body: { type: 'text', datastoreId: datastore.body.id, name: 'Opening hours', text: HOURS },
    });
    await waitForDatasource(parley, workspace.key, source.body.id);
    const agent = await parley.call<{ id: string }>('POST', '/agents', {
      key: workspace.key,
      body: { name, tools: [{ type: 'datastore', datastoreId: datastore.body.id }] },
    });
    return agent.body.id;
  };

  const sinkSmtp = () => {
    const { port } = new URL(sink.url);
    return { host: '127.0.0.1', port: Number(port), secure: false };
  };

  /** A customer's mail program, sending to Parley's listener as the shop's MTA would forward it. */
  const send = async (options: SendMailOptions) => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: parley.mailInboundPort!, secure: false, ignoreTLS: true });
    try {
      return await transport.sendMail({ from: 'Jane Doe <jane@customer.example>', to: SUPPORT, ...options });
    } finally {
      transport.close();
    }
  };

  const mailConversations = async (workspace = ws) =>
    (await parley.call<ListedConversationBody[]>('GET', '/conversations?channel=email&fullConversation=true', { key: workspace.key })).body;

  const conversationTitled = async (title: string, workspace = ws) => {
    const list = await until(
      () => mailConversations(workspace),
      (conversations) => conversations.some((conversation) => conversation.title === title),
    );
    return list.find((conversation) => conversation.title === title)!;
  };

  const full = async (id: string, workspace = ws) =>
    (await parley.call<ConversationBody>('GET', `/conversations/${id}`, { key: workspace.key })).body;

  const mailsTo = (address: string, count = 1): Promise<ReceivedMail[]> =>
    until(
      () => sink.mails.filter((mail) => mail.to.includes(address)),
      (mails) => mails.length >= count,
    );

  it('connects an agent to an address: channel mail, the agent does not answer by itself, passwords only as hints', async () => {
    const created = await parley.call<ChannelConnectionBody>('POST', `/agents/${agentId}/channels`, {
      key: ws.key,
      body: { channel: 'email', config: { address: SUPPORT, name: 'Shop support', inbound: 'smtp', smtp: sinkSmtp() } },
    });
    seen.push(created.body);
    expect(created.status).toBe(200);
    connection = created.body;
    expect(connection).toMatchObject({
      channel: 'mail',
      status: 'active',
      enabled: true,
      config: { address: SUPPORT, inbound: 'smtp', aiReplies: false, imap: null, smtp: { ...sinkSmtp(), user: null, passwordHint: null } },
    });
    // Where the shop's MTA forwards to: the listener's real port, not the 0 it was asked for.
    expect(connection.inboundUrl).toBe(`smtp://127.0.0.1:${parley.mailInboundPort}`);
    const tested = await parley.call<ConnectionTestResultBody>('POST', `/channels/${connection.id}/test`, { key: ws.key });
    expect(tested.body).toMatchObject({ ok: true });
  });

  let threadId: string;
  const firstId = `<first-${kind}@customer.example>`;

  it('turns a customer’s mail into a conversation left for people: subject as title, sender as contact', async () => {
    await send({ subject: 'Broken kettle', text: 'My kettle stopped working after a week. Can I get a new one?', messageId: firstId });
    const listed = await conversationTitled('Broken kettle');
    threadId = listed.id;
    expect(listed).toMatchObject({ channel: 'mail', isAiEnabled: false });
    const conversation = await full(threadId);
    expect(conversation.messages.map((message) => [message.from, message.text])).toEqual([
      ['human', 'My kettle stopped working after a week. Can I get a new one?'],
    ]);
    const record = await parley.core.store.conversations.find(ws.id, threadId);
    const [contact] = await parley.core.store.participants.contacts(ws.id, [record!.contactId!]);
    expect(contact).toMatchObject({ email: 'jane@customer.example', firstName: 'Jane', lastName: 'Doe' });
    // Nobody answered: the mail waits for a person.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(sink.mails.filter((mail) => mail.to.includes('jane@customer.example'))).toHaveLength(0);
    expect((await full(threadId)).messages).toHaveLength(1);
  });

  let replyMessageId: string;

  it('sends a member’s reply to the customer, threaded under their mail, with the tagged reply address', async () => {
    const member = await parley.newMember(ws.id, 'member');
    const reply = await parley.call<{ id: string }>('POST', `/conversations/${threadId}/messages`, {
      key: member.accessToken,
      body: { text: 'Hello Jane, sorry about that. Please send us the receipt and we will replace it.' },
    });
    expect(reply.status).toBe(201);
    const [mail] = await mailsTo('jane@customer.example');
    expect(mail!.mail.subject).toBe('Re: Broken kettle');
    expect(mail!.mail.inReplyTo).toBe(firstId);
    expect([mail!.mail.references].flat()).toEqual([firstId]);
    expect(mail!.mail.replyTo?.value[0]?.address).toBe(`support+${threadId}@shop.example`);
    expect(mail!.mail.text).toContain('please send us the receipt'.replace('please', 'Please'));
    expect(mail!.mail.headers.get('auto-submitted')).toBeUndefined();
    const stored = await until(
      () => parley.core.store.messages.find(ws.id, reply.body.id),
      (message) => message?.delivery?.state === 'sent',
    );
    replyMessageId = stored!.channelMessageId!;
    expect(`<${replyMessageId}>`).toBe(mail!.mail.messageId);
  });

  const quoted = (text: string) =>
    `${text}\n\nOn Tue, 3 Nov 2026 at 10:00, Shop support <${SUPPORT}> wrote:\n> Hello Jane, sorry about that. Please send us the receipt\n> and we will replace it.\n`;

  it('keeps the customer’s replies in the one conversation, the quoted history stripped', async () => {
    const texts = ['Here is the receipt number: 4711.', 'Did you get it?', 'Thanks, the new kettle arrived!'];
    let previous = `<${replyMessageId}>`;
    const references = [firstId, previous];
    for (const [index, text] of texts.entries()) {
      const messageId = `<reply-${index}-${kind}@customer.example>`;
      await send({ subject: 'Re: Broken kettle', text: quoted(text), messageId, inReplyTo: previous, references: [...references] });
      references.push(messageId);
      previous = messageId;
    }
    const conversation = await until(
      () => full(threadId),
      (body) => body.messages.length >= 5,
    );
    const humans = conversation.messages.filter((message) => message.from === 'human' && message.sender?.type !== 'user');
    expect(humans.map((message) => message.text).sort()).toEqual([...texts, 'My kettle stopped working after a week. Can I get a new one?'].sort());
    const listed = (await mailConversations()).filter((item) => item.title === 'Broken kettle');
    expect(listed).toHaveLength(1);
  });

  it('threads a reply that names only our mail (In-Reply-To, no References) and went to the plain address', async () => {
    await send({ subject: 'Re: Broken kettle', text: quoted('One more thing: the lid is fine.'), inReplyTo: `<${replyMessageId}>` });
    const conversation = await until(
      () => full(threadId),
      (body) => body.messages.some((message) => message.text === 'One more thing: the lid is fine.'),
    );
    expect(conversation.id).toBe(threadId);
    expect((await mailConversations()).filter((item) => item.title.includes('Broken kettle'))).toHaveLength(1);
  });

  it('finds the conversation by the tagged reply address when the threading headers were lost', async () => {
    await send({ to: `support+${threadId}@shop.example`, subject: 'kettle again', text: 'Sorry, my mail program lost the thread. All good now.' });
    const conversation = await until(
      () => full(threadId),
      (body) => body.messages.some((message) => message.text.includes('lost the thread')),
    );
    expect(conversation.id).toBe(threadId);
    expect((await mailConversations()).filter((item) => item.title === 'kettle again')).toHaveLength(0);
  });

  it('never makes a conversation of automatic mail: an auto-reply, a bounce, Parley’s own mail coming back', async () => {
    const before = (await mailConversations()).length;
    const threadMessages = (await full(threadId)).messages.length;
    await send({ subject: 'Out of office', text: 'I am away until Monday.', headers: { 'Auto-Submitted': 'auto-replied' } });
    await send({
      from: 'Mail Delivery System <mailer-daemon@customer.example>',
      subject: 'Undelivered Mail Returned to Sender',
      text: 'This is the mail system. Your message could not be delivered.',
      envelope: { from: '', to: SUPPORT },
    });
    const [ours] = await mailsTo('jane@customer.example');
    await send({
      from: SUPPORT,
      subject: ours!.mail.subject,
      text: ours!.mail.text,
      messageId: ours!.mail.messageId,
      headers: { 'X-Parley-Connection': connection.id },
    });
    // A person's mail after them is taken: everything before it was looked at.
    await send({ subject: 'Marker', text: 'Just checking the listener.' });
    await conversationTitled('Marker');
    const titles = (await mailConversations()).map((conversation) => conversation.title);
    expect(titles).toHaveLength(before + 1);
    for (const title of ['Out of office', 'Undelivered Mail Returned to Sender', 'Re: Broken kettle']) expect(titles).not.toContain(title);
    // Our reply came back: it is no new message of the thread either.
    expect((await full(threadId)).messages).toHaveLength(threadMessages);
  });

  it('keeps a small attachment with the message, downloadable byte for byte; an oversized one is listed as dropped', async () => {
    await send({
      subject: 'Receipt attached',
      text: 'Here is my receipt, and a photo of the kettle.',
      attachments: [
        { filename: 'receipt.pdf', content: PDF, contentType: 'application/pdf' },
        { filename: 'kettle.bin', content: Buffer.alloc(20_000, 7), contentType: 'application/octet-stream' },
      ],
    });
    const listed = await conversationTitled('Receipt attached');
    const [message] = (await full(listed.id)).messages;
    expect(message!.attachments).toEqual([
      { id: expect.any(String), name: 'receipt.pdf', mimeType: 'application/pdf', size: PDF.length },
      { name: 'kettle.bin', dropped: true },
    ]);
    const attachmentId = (message!.attachments[0] as { id: string }).id;
    const url = `${parley.url}/conversations/${listed.id}/messages/${message!.id}/attachments/${attachmentId}`;
    const member = await parley.newMember(ws.id, 'member');
    for (const token of [ws.key, member.accessToken]) {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await response.arrayBuffer()).equals(PDF)).toBe(true);
    }
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(`${url}x`, { headers: { authorization: `Bearer ${ws.key}` } })).status).toBe(404);
    expect(await storedBytes(parley, 'message')).not.toContain('%PDF-1.4');
    // Of the two, only the small one was stored.
    expect((await attachmentBlobSizes(parley)).filter((size) => size >= 20_000)).toEqual([]);
    expect(await attachmentBlobSizes(parley)).toContain(PDF.length);
  });

  it('serves anything but images, PDFs and text as a download', async () => {
    await send({
      subject: 'Page attached',
      text: 'See the page.',
      attachments: [{ filename: 'page.html', content: '<script>alert(1)</script>', contentType: 'text/html' }],
    });
    const listed = await conversationTitled('Page attached');
    const [message] = (await full(listed.id)).messages;
    const attachment = message!.attachments[0] as { id: string; mimeType: string };
    expect(attachment.mimeType).toBe('text/html');
    const response = await fetch(`${parley.url}/conversations/${listed.id}/messages/${message!.id}/attachments/${attachment.id}`, {
      headers: { authorization: `Bearer ${ws.key}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="page.html"/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('lets the agent answer by itself once aiReplies is on: the answer goes out as mail', async () => {
    const changed = await parley.call<ChannelConnectionBody>('PATCH', `/channels/${connection.id}`, {
      key: ws.key,
      body: { config: { aiReplies: true } },
    });
    seen.push(changed.body);
    expect(changed.body).toMatchObject({ config: { aiReplies: true, address: SUPPORT, smtp: sinkSmtp() } });
    await send({ from: 'Ada <ada@customer.example>', subject: 'Opening hours', text: 'When does the shop open on Monday?' });
    const [answer] = await mailsTo('ada@customer.example');
    expect(answer!.mail.text).toContain('9 am');
    expect(answer!.mail.subject).toBe('Re: Opening hours');
    expect(answer!.mail.headers.get('auto-submitted')).toBe('auto-replied');
    const listed = await conversationTitled('Opening hours');
    expect(listed.isAiEnabled).toBe(true);
  });

  let other: Workspace;
  let otherConnection: ChannelConnectionBody;

  it('keeps workspaces apart: the same address cannot be taken twice, nor another’s connection read or changed', async () => {
    other = await parley.newWorkspace();
    const otherAgent = await newAgent(other, 'Other shop');
    const taken = await parley.call<ErrorBody>('POST', `/agents/${otherAgent}/channels`, {
      key: other.key,
      body: { channel: 'email', config: { address: SUPPORT.toUpperCase(), inbound: 'smtp', smtp: sinkSmtp() } },
    });
    expect(taken.status).toBe(409);
    for (const [method, body] of [['GET'], ['PATCH', { config: { address: 'thief@other.example' } }], ['DELETE'], ['POST']] as const) {
      const suffix = method === 'POST' ? '/test' : '';
      const refused = await parley.call<ErrorBody>(method, `/channels/${connection.id}${suffix}`, { key: other.key, body });
      expect(refused.status).toBe(403);
    }
    const created = await parley.call<ChannelConnectionBody>('POST', `/agents/${otherAgent}/channels`, {
      key: other.key,
      body: {
        channel: 'email',
        config: { address: 'help@other.example', inbound: 'smtp', smtp: { ...sinkSmtp(), user: 'other', password: SMTP_SECRET } },
      },
    });
    seen.push(created.body);
    expect(created.status).toBe(200);
    otherConnection = created.body;
    expect(otherConnection.config).toMatchObject({ smtp: { user: 'other', passwordHint: expect.stringContaining('…') } });

    // A disabled connection frees its address; switched on again while another holds it, it is refused.
    const patch = (id: string, key: string, body: unknown) => parley.call<ChannelConnectionBody>('PATCH', `/channels/${id}`, { key, body });
    expect((await patch(connection.id, ws.key, { enabled: false })).status).toBe(200);
    expect((await patch(otherConnection.id, other.key, { config: { address: SUPPORT } })).status).toBe(200);
    expect((await patch(connection.id, ws.key, { enabled: true })).status).toBe(409);
    expect((await patch(otherConnection.id, other.key, { config: { address: 'help@other.example' } })).status).toBe(200);
    expect((await patch(connection.id, ws.key, { enabled: true })).body).toMatchObject({ enabled: true, status: 'active' });

    await send({ subject: 'Only for the shop', text: 'Is this the shop?' });
    await conversationTitled('Only for the shop');
    expect((await mailConversations(other)).map((conversation) => conversation.title)).not.toContain('Only for the shop');
    expect((await parley.call<ChannelConnectionBody>('GET', `/channels/${connection.id}`, { key: ws.key })).body.config).toMatchObject({
      address: SUPPORT,
    });
  });

  let imapConnection: ChannelConnectionBody;

  it('reads a mailbox over IMAP: a mail delivered into it becomes a conversation within seconds', async () => {
    const imapAgent = await newAgent(ws, 'Mailbox reader');
    const created = await parley.call<ChannelConnectionBody>('POST', `/agents/${imapAgent}/channels`, {
      key: ws.key,
      body: {
        channel: 'email',
        config: {
          address: 'orders@shop.example',
          inbound: 'imap',
          imap: { host: '127.0.0.1', port: dovecot.port, secure: false, user: dovecot.user, password: dovecot.password },
          smtp: sinkSmtp(),
        },
      },
    });
    seen.push(created.body);
    expect(created.status).toBe(200);
    imapConnection = created.body;
    expect(imapConnection.config).toMatchObject({
      inbound: 'imap',
      imap: { user: dovecot.user, mailbox: 'INBOX', passwordHint: expect.any(String) },
    });
    const tested = await parley.call<ConnectionTestResultBody>('POST', `/channels/${imapConnection.id}/test`, { key: ws.key });
    seen.push(tested.body);
    expect(tested.body).toMatchObject({ ok: true, details: { messages: expect.any(String) } });

    // The poller opens the mailbox first (a mailbox connected anew is not imported with its history).
    await until(
      () => parley.core.store.channelConnections.find(ws.id, imapConnection.id),
      (record) => record?.cursor !== null,
    );
    const started = Date.now();
    await dovecot.deliver(
      await rawMail({ from: 'Bob <bob@customer.example>', to: 'orders@shop.example', subject: 'Order 42', text: 'Where is my order 42?' }),
    );
    const listed = await until(
      async () => (await mailConversations()).filter((conversation) => conversation.title === 'Order 42'),
      (list) => list.length === 1,
      10_000,
    );
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(listed[0]).toMatchObject({ channel: 'mail', isAiEnabled: false });
  });

  it('tells a wrong mailbox password in plain words, and shows the connection failing once a poll failed', async () => {
    const changed = await parley.call<ChannelConnectionBody>('PATCH', `/channels/${imapConnection.id}`, {
      key: ws.key,
      body: { config: { imap: { password: WRONG_IMAP_SECRET } } },
    });
    seen.push(changed.body);
    expect(changed.status).toBe(200);
    const tested = await parley.call<ConnectionTestResultBody>('POST', `/channels/${imapConnection.id}/test`, { key: ws.key });
    seen.push(tested.body);
    expect(tested.body.ok).toBe(false);
    expect(tested.body.message).toMatch(/IMAP server 127\.0\.0\.1:\d+ refused the user name or password/);
    const failing = await until(
      async () => (await parley.call<ChannelConnectionBody>('GET', `/channels/${imapConnection.id}`, { key: ws.key })).body,
      (body) => body.status === 'failing',
    );
    seen.push(failing);
    expect(failing.lastError).toMatch(/refused the user name or password/);
  });

  it('keeps the IMAP and SMTP passwords out of every answer and out of the database in clear', async () => {
    const listed = await parley.call<ChannelConnectionBody[]>('GET', `/agents/${agentId}/channels`, { key: ws.key });
    seen.push(listed.body, (await parley.call('GET', `/channels/${otherConnection.id}`, { key: other.key })).body);
    const text = JSON.stringify(seen);
    for (const secret of [dovecot.password, WRONG_IMAP_SECRET, SMTP_SECRET]) {
      expect(text).not.toContain(secret);
      expect(await storedBytes(parley, 'channel_connection')).not.toContain(secret);
    }
  });
});

/** The sizes of the attachment blobs the store holds: files under the data directory, or PostgreSQL's blob parts. */
async function attachmentBlobSizes(parley: TestParley): Promise<number[]> {
  const { config } = parley.scratch;
  if (config.kind === 'sqlite') {
    const dir = path.join(parley.config.dataDir, 'files', 'at');
    const names = (await fs.readdir(dir)).filter((name) => name.startsWith('attachment-'));
    return Promise.all(names.map(async (name) => (await fs.stat(path.join(dir, name))).size));
  }
  const client = new pg.Client({ connectionString: config.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ size: string }>(
      "SELECT sum(length(data)) AS size FROM blob_part WHERE key LIKE 'attachment-%' GROUP BY key",
    );
    return rows.map((row) => Number(row.size));
  } finally {
    await client.end();
  }
}
