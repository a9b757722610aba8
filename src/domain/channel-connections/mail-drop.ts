import { parseInboundMail } from '../../channels/mail/inbound-mail.js';
import { untaggedAddress } from '../../channels/mail/reply-address.js';
import type { ChannelConnectionRecord, Store } from '../../store/store.js';
import type { ChannelInbox } from './channel-inbox.js';

/**
 * Mail forwarded to the built-in SMTP listener: the recipient names the connection (`support@…`, or the
 * reply address `support+<conversation>@…`); automatic mail, bounces and Parley's own are dropped, the rest
 * goes to the connection's inbox like any channel message.
 */
export class MailDrop {
  constructor(
    private readonly store: Store,
    private readonly inbox: ChannelInbox,
    private readonly options: { maxAttachmentBytes: number; onSkipped?: (connectionId: string, reason: string) => void },
  ) {}

  async accepts(recipient: string): Promise<boolean> {
    return (await this.connectionFor(recipient)) !== undefined;
  }

  async deliver(recipient: string, raw: Buffer): Promise<void> {
    const record = await this.connectionFor(recipient);
    if (record === undefined) return;
    const parsed = await parseInboundMail(raw, { maxAttachmentBytes: this.options.maxAttachmentBytes, ownConnectionId: record.id, recipient });
    if ('ignored' in parsed) {
      this.options.onSkipped?.(record.id, parsed.ignored);
      return;
    }
    await this.inbox.accept(record, [parsed.message]);
  }

  private async connectionFor(recipient: string): Promise<ChannelConnectionRecord | undefined> {
    const address = untaggedAddress(recipient);
    const connections = await this.store.channelConnections.listEnabled(['mail']);
    return connections.find((record) => record.settings.inbound === 'smtp' && record.settings.address === address);
  }
}
