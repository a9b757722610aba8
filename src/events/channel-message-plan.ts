import type { EventEnvelope } from '../contract/events.js';
import type { NewJob, Store } from '../store/store.js';
import { channelMessageJob } from './delivery-plan.js';

/** Notices a visitor on a channel is told; a reopened conversation is news to the team only. */
const SENT_NOTICES: ReadonlySet<string> = new Set(['humanRequested', 'personJoined', 'aiSwitchedOff']);

/**
 * The job that sends a new message out through its conversation's channel, if it is one to send: written
 * by the agent, a member or the server (not the visitor, and no private note), in a conversation
 * of an agent connected to that channel. The message is marked pending at once, so the inbox shows it.
 */
export async function planChannelMessage(store: Store, envelope: EventEnvelope, maxAttempts: number): Promise<NewJob | undefined> {
  if (envelope.type !== 'message.created') return undefined;
  const { conversationId, message } = (envelope as EventEnvelope<'message.created'>).data;
  // The visitor's own message came from there; a member's private note never leaves the team.
  if (message.sender?.type === 'visitor' || message.private === true) return undefined;
  if (message.notice !== undefined && !SENT_NOTICES.has(message.notice.kind)) return undefined;
  const conversation = await store.conversations.find(envelope.workspaceId, conversationId);
  if (conversation === undefined || conversation.agentId === null || conversation.channelExternalId === null) return undefined;
  const connection = await store.channelConnections.ofAgentChannel(envelope.workspaceId, conversation.agentId, conversation.channel);
  if (connection === undefined || !connection.enabled) return undefined;
  const job = channelMessageJob(envelope.workspaceId, { connectionId: connection.id, conversationId, messageId: message.id }, maxAttempts);
  // Planned again after a crash half-way: the message goes out once.
  if ((await store.jobs.find(job.id)) !== undefined) return undefined;
  await store.messages.recordDelivery(envelope.workspaceId, message.id, { state: 'pending', error: null });
  return job;
}
