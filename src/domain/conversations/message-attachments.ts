import fs from 'node:fs/promises';
import path from 'node:path';
import { notFound } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { newId } from '../ids.js';
import { findInWorkspace } from '../scoped.js';

/** A file that came with a visitor's message (an e-mail attachment), already size-capped by the channel. */
export interface IncomingAttachment {
  name: string;
  mimeType: string;
  content: Uint8Array;
}

/** A kept attachment as the message's `attachments` list records it: what it is, never its bytes. */
// Types, not interfaces: entries of the message's JSON `attachments` list (`Record<string, unknown>`).
export type KeptAttachment = {
  id: string;
  name: string;
  mimeType: string;
  size: number;
};

/** An attachment too large to keep: the message names it, so people know it was sent. */
export type DroppedAttachment = {
  name: string;
  dropped: true;
};

/** An attachment's bytes, as a member downloads them. */
export type AttachmentDownload = KeptAttachment & {
  content: Buffer;
};

/**
 * The blob of attachment `id`: workspace-scoped, so a key is never shared between workspaces, and only
 * reached through a message read in its workspace (blob keys themselves are workspace-free).
 */
export const attachmentBlobKey = (workspaceId: string, id: string): string => `attachment-${workspaceId}-${id}`;

const isKept = (entry: Record<string, unknown>): entry is Record<string, unknown> & KeptAttachment =>
  typeof entry.id === 'string' && typeof entry.name === 'string' && typeof entry.mimeType === 'string' && typeof entry.size === 'number';

/** Longest file name kept: mail programs send what they like. */
const MAX_NAME = 255;

const cleanName = (name: string): string =>
  // Control characters and path separators are no part of a name a person downloads.
  name
    .replace(/[\p{Cc}/\\]/gu, '_')
    .trim()
    .slice(0, MAX_NAME) || 'attachment';

/**
 * Files kept with messages: their bytes in the store's blobs, what they are in the message's `attachments`
 * list, and read back for the workspace's members only.
 */
export class MessageAttachments {
  constructor(
    private readonly store: Store,
    /** Where a file is written before the blob store takes it (moved into place where it can be). */
    private readonly tempDir: string,
  ) {}

  /**
   * Keeps `attachments` of a message of `workspaceId` and answers the entries its `attachments` list
   * records, the dropped ones (by name only) after them. On a failure nothing is left behind.
   */
  async keep(
    workspaceId: string,
    attachments: readonly IncomingAttachment[],
    dropped: readonly string[] = [],
  ): Promise<(KeptAttachment | DroppedAttachment)[]> {
    const kept: KeptAttachment[] = [];
    try {
      for (const attachment of attachments) {
        const id = newId();
        await this.put(attachmentBlobKey(workspaceId, id), attachment.content);
        kept.push({ id, name: cleanName(attachment.name), mimeType: attachment.mimeType.toLowerCase(), size: attachment.content.byteLength });
      }
    } catch (error) {
      await this.discard(workspaceId, kept);
      throw error;
    }
    return [...kept, ...dropped.map((name): DroppedAttachment => ({ name: cleanName(name), dropped: true }))];
  }

  /** Removes kept attachments' blobs (a message that was not stored after all). */
  async discard(workspaceId: string, entries: readonly Record<string, unknown>[]): Promise<void> {
    for (const entry of entries) {
      if (isKept(entry)) await this.store.blobs.delete(attachmentBlobKey(workspaceId, entry.id)).catch(() => undefined);
    }
  }

  /**
   * Attachment `attachmentId` of message `messageId` in conversation `conversationId`: 403 for another
   * workspace's conversation, 404 for a message or attachment it does not hold.
   */
  async open(workspaceId: string, conversationId: string, messageId: string, attachmentId: string): Promise<AttachmentDownload> {
    await findInWorkspace(this.store.conversations, 'Conversation', workspaceId, conversationId);
    const message = await this.store.messages.find(workspaceId, messageId);
    if (message === undefined || message.conversationId !== conversationId) throw notFound('Message', messageId);
    const entry = message.attachments.filter(isKept).find((attachment) => attachment.id === attachmentId);
    if (entry === undefined) throw notFound('Attachment', attachmentId);
    const content = await this.store.blobs
      .withLocalFile(attachmentBlobKey(workspaceId, entry.id), (file) => fs.readFile(file))
      .catch((error: unknown) => {
        // Listed but gone (removed from the data directory by hand): not found, like any missing file.
        if (error instanceof Error && /ENOENT|does not exist/.test(error.message)) throw notFound('Attachment', attachmentId);
        throw error;
      });
    return { id: entry.id, name: entry.name, mimeType: entry.mimeType, size: entry.size, content };
  }

  private async put(key: string, content: Uint8Array): Promise<void> {
    await fs.mkdir(this.tempDir, { recursive: true });
    const file = path.join(this.tempDir, `attachment-${newId()}`);
    try {
      await fs.writeFile(file, content);
      await this.store.blobs.put(key, file);
    } finally {
      await fs.rm(file, { force: true });
    }
  }
}
