import { isJsonObject } from '../../text/json-object.js';
import type { ChannelIdentity, DeliveryReceipt, InboundChannelMessage } from '../connector.js';
import { whatsAppErrorText } from './whatsapp-errors.js';

/** A file a message carries, fetched later from the Graph API by its media id. */
export interface WhatsAppMedia {
  mediaId: string;
  /** The file's name as the inbox lists it: a document's own, else the kind and an extension (`image.jpg`). */
  name: string;
  mimeType: string;
}

/** A message of a delivery, its files not yet fetched. */
export interface WhatsAppInbound {
  message: InboundChannelMessage;
  media: WhatsAppMedia[];
}

export interface WhatsAppDelivery {
  messages: WhatsAppInbound[];
  receipts: DeliveryReceipt[];
}

type Json = Record<string, unknown>;

const MEDIA_KINDS = ['image', 'document', 'audio', 'video'] as const;

const RECEIPT_STATES: readonly string[] = ['sent', 'delivered', 'read', 'failed'] satisfies DeliveryReceipt['state'][];

// Extensions of the types WhatsApp carries (its supported-media list), for files that come without a name.
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
};

/**
 * A verified webhook delivery of the Cloud API (`object: whatsapp_business_account`, `entry[].changes[]` of
 * field `messages`) as the messages people wrote to `phoneNumberId` and the statuses of what it sent. Changes for
 * another number of the same app are left out; so are message kinds with nothing to answer (reactions,
 * stickers, system messages). Never throws: the delivery comes from outside.
 */
export function parseWhatsAppWebhook(payload: unknown, phoneNumberId: string): WhatsAppDelivery {
  const delivery: WhatsAppDelivery = { messages: [], receipts: [] };
  if (!isJsonObject(payload) || payload.object !== 'whatsapp_business_account') return delivery;
  for (const entry of arrayOf(payload.entry)) {
    for (const change of arrayOf(entry.changes)) {
      const value = change.value;
      if (change.field !== 'messages' || !isJsonObject(value)) continue;
      if (!isJsonObject(value.metadata) || String(value.metadata.phone_number_id) !== phoneNumberId) continue;
      const contacts = arrayOf(value.contacts);
      for (const message of arrayOf(value.messages)) {
        const inbound = inboundOf(message, contacts);
        if (inbound !== undefined) delivery.messages.push(inbound);
      }
      for (const status of arrayOf(value.statuses)) {
        const receipt = receiptOf(status);
        if (receipt !== undefined) delivery.receipts.push(receipt);
      }
    }
  }
  return delivery;
}

function inboundOf(message: Json, contacts: Json[]): WhatsAppInbound | undefined {
  const from = text(message.from);
  const id = text(message.id);
  if (from === undefined || id === undefined) return undefined;
  const content = contentOf(message);
  if (content === undefined) return undefined;
  const replied = isJsonObject(message.context) ? text(message.context.id) : undefined;
  return {
    message: {
      // The thread is the person: WhatsApp has one chat per customer and business number.
      channelExternalId: from,
      channelMessageId: id,
      text: content.text,
      from: identityOf(from, contacts),
      attachments: [],
      context: {},
      inReplyTo: replied === undefined ? [] : [replied],
    },
    media: content.media,
  };
}

/** What a message says, by its type; undefined for the kinds Parley does not answer. */
function contentOf(message: Json): { text: string; media: WhatsAppMedia[] } | undefined {
  const type = text(message.type);
  const body = type === undefined ? undefined : message[type];
  if (!isJsonObject(body)) return undefined;
  switch (type) {
    case 'text':
      return words(text(body.body));
    case 'interactive': {
      // A tap on a reply button or a list row: its title is what the person chose.
      const reply = body.button_reply ?? body.list_reply;
      return isJsonObject(reply) ? words(text(reply.title)) : undefined;
    }
    case 'button':
      // A quick-reply button of a template message.
      return words(text(body.text));
    case 'location': {
      const place = [text(body.name), text(body.address)].filter(Boolean).join(', ');
      const at = typeof body.latitude === 'number' && typeof body.longitude === 'number' ? `${body.latitude}, ${body.longitude}` : undefined;
      return at === undefined ? undefined : { text: `Location: ${place === '' ? at : `${place} (${at})`}`, media: [] };
    }
  }
  if (!(MEDIA_KINDS as readonly (string | undefined)[]).includes(type)) return undefined;
  const mediaId = text(body.id);
  if (mediaId === undefined) return undefined;
  const mimeType = (text(body.mime_type) ?? 'application/octet-stream').split(';')[0]!.trim();
  const extension = EXTENSIONS[mimeType];
  const kind = type === 'audio' && body.voice === true ? 'voice' : type!;
  const name = text(body.filename) ?? (extension === undefined ? kind : `${kind}.${extension}`);
  return { text: text(body.caption) ?? '', media: [{ mediaId, name, mimeType }] };
}

const words = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : { text: value, media: [] });

function identityOf(waId: string, contacts: Json[]): ChannelIdentity {
  const contact = contacts.find((each) => text(each.wa_id) === waId);
  const name = isJsonObject(contact?.profile) ? text(contact.profile.name) : undefined;
  return { externalId: waId, phoneNumber: `+${waId}`, ...(name === undefined ? {} : { displayName: name }) };
}

function receiptOf(status: Json): DeliveryReceipt | undefined {
  const id = text(status.id);
  const recipient = text(status.recipient_id);
  const state = text(status.status);
  if (id === undefined || recipient === undefined || state === undefined || !RECEIPT_STATES.includes(state)) return undefined;
  const receipt: DeliveryReceipt = { channelExternalId: recipient, channelMessageId: id, state: state as DeliveryReceipt['state'] };
  if (state === 'failed') {
    const [error] = arrayOf(status.errors);
    const details = isJsonObject(error?.error_data) ? text(error.error_data.details) : undefined;
    receipt.error = whatsAppErrorText(
      typeof error?.code === 'number' ? error.code : undefined,
      details ?? text(error?.title) ?? text(error?.message),
    );
  }
  return receipt;
}

const arrayOf = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' ? String(value) : undefined;
