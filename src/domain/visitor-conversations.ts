import type { ContactFields, MessageEval, Store } from '../store/store.js';
import { ParleyError, notFound, unauthorized } from '../errors.js';
import type { Caller, VisitorGrant } from './callers.js';
import type { ConversationUseCases } from './conversations/conversation-use-cases.js';
import { senderOf, type ConversationView } from './conversation-view.js';
import type { EventStreamService, OpenedStream, VisitorConcern } from './event-streams.js';
import { usableAgent } from './public-access.js';
import { newestFirst } from './conversation-history.js';
import { keylessConversation } from './visitor-access.js';
import { sourceLabels } from './answer-sources.js';
import { isForVisitor } from './conversations/conversation-rules.js';
import type {
  VisitorMessageBody as VisitorMessage,
  VisitorStreamEvent,
  VisitorTranscriptBody as VisitorTranscript,
} from '../contract/visitor-conversation.js';

/**
 * A visitor's own conversation with a public agent, reached only with the visitor token that grants it
 * (the chat widget's calls): read it back, follow it live, ask for a person, resolve it, rate answers and
 * say who they are. Anyone else gets 404, as for a conversation that does not exist.
 */
export class VisitorConversationService {
  constructor(
    private readonly store: Store,
    private readonly conversations: ConversationUseCases,
    private readonly streams: EventStreamService,
  ) {}

  async transcript(caller: Caller, agentId: string, origin?: string): Promise<VisitorTranscript> {
    const grant = await this.grantFor(caller, agentId, origin);
    const view = await this.conversations.views.get(grant.workspaceId, grant.conversationId);
    return this.transcriptOf(view, view.messages);
  }

  private transcriptOf(view: ConversationView, messages: ConversationView['messages']): VisitorTranscript {
    return {
      conversationId: view.conversation.id,
      status: view.conversation.status,
      isAiEnabled: view.conversation.isAiEnabled,
      // The team's private notes are never the visitor's to see.
      messages: messages.filter(isForVisitor).map((message) => this.visitorMessage(message, view)),
    };
  }

  /**
   * The hosted widget's history read (`GET /conversations/{id}` without a key): the caller's own conversation,
   * by its token or the visitor id it was started with, messages newest first (see {@link newestFirst}).
   */
  async history(
    caller: Caller,
    conversationId: string,
    visitorId: string | undefined,
    cursor: string | undefined,
    origin?: string,
  ): Promise<VisitorTranscript> {
    const conversation = await keylessConversation(this.store, caller, conversationId, visitorId, origin);
    const view = await this.conversations.views.get(conversation.workspaceId, conversation.id);
    return this.transcriptOf(view, newestFirst(view.messages, cursor));
  }

  /** The hosted widget's rating (`POST /conversations/eval-answer` without a key): an agent answer of the caller's own conversation. */
  async rateAnswer(caller: Caller, messageId: string, visitorId: string | undefined, value: MessageEval | null, origin?: string): Promise<void> {
    const workspaceId = await this.store.messages.ownerOf(messageId);
    const message = workspaceId === undefined ? undefined : await this.store.messages.find(workspaceId, messageId);
    if (message === undefined || message.from !== 'agent') throw notFound('Message', messageId);
    try {
      await keylessConversation(this.store, caller, message.conversationId, visitorId, origin);
    } catch (error) {
      // Someone else's answer reads like an unknown one, conversation and all.
      if (ParleyError.isInstance(error) && error.code === 'NOT_FOUND') throw notFound('Message', messageId);
      throw error;
    }
    await this.conversations.messages.rate(message.workspaceId, messageId, value);
  }

  /** "Talk to a person" (HUMAN_REQUESTED) or "this solved it" (RESOLVED); events and e-mail follow as for the API. */
  async setStatus(caller: Caller, agentId: string, status: 'HUMAN_REQUESTED' | 'RESOLVED', origin?: string): Promise<VisitorTranscript> {
    const grant = await this.grantFor(caller, agentId, origin);
    await this.conversations.status.patch(grant.workspaceId, grant.conversationId, { status });
    return this.transcript(caller, agentId, origin);
  }

  async rate(caller: Caller, agentId: string, messageId: string, value: MessageEval | null, origin?: string): Promise<void> {
    const grant = await this.grantFor(caller, agentId, origin);
    const message = await this.store.messages.find(grant.workspaceId, messageId);
    if (message === undefined || message.conversationId !== grant.conversationId || message.from !== 'agent') {
      throw notFound('Message', messageId);
    }
    await this.conversations.messages.rate(grant.workspaceId, messageId, value);
  }

  /** The lead form: the conversation's contact, created or updated (merged by e-mail within the workspace). */
  async identify(caller: Caller, agentId: string, contact: ContactFields, origin?: string): Promise<void> {
    const grant = await this.grantFor(caller, agentId, origin);
    await this.conversations.intake.identify(grant.workspaceId, grant.conversationId, grant.visitorId, contact);
  }

  /** Follows the visitor's conversation: new messages (with their senders' names) and status changes. */
  async follow(
    caller: Caller,
    agentId: string,
    after: string | undefined,
    deliver: (events: VisitorStreamEvent[]) => void,
    origin?: string,
  ): Promise<OpenedStream> {
    const grant = await this.grantFor(caller, agentId, origin);
    const names = new Map<string, Promise<string | null>>();
    const nameOf = (type: string, id: string): Promise<string | null> => {
      const key = `${type}:${id}`;
      let name = names.get(key);
      if (name === undefined) {
        name =
          type === 'user'
            ? this.store.members.find(grant.workspaceId, id).then((member) => member?.name ?? null)
            : this.store.agents.find(grant.workspaceId, id).then((agent) => agent?.name ?? null);
        names.set(key, name);
      }
      return name;
    };
    // Names are looked up asynchronously; a chain keeps the events in their order.
    let queue = Promise.resolve();
    return this.streams.openConversation(grant.workspaceId, grant.conversationId, after, (envelopes) => {
      queue = queue.then(async () => deliver(await Promise.all(envelopes.map((envelope) => this.visitorEvent(envelope, grant, nameOf)))));
    });
  }

  private async visitorEvent(
    envelope: VisitorConcern,
    grant: VisitorGrant,
    nameOf: (type: string, id: string) => Promise<string | null>,
  ): Promise<VisitorStreamEvent> {
    if (envelope.type === 'message.created') {
      const { message } = envelope.data;
      const { sender } = message;
      const name = sender === null || sender.id === null || sender.type === 'visitor' ? null : await nameOf(sender.type, sender.id);
      return {
        id: envelope.id,
        type: 'message',
        data: {
          id: message.id,
          from: message.from,
          text: message.text,
          createdAt: message.createdAt,
          sender: sender === null ? null : { type: sender.type, name, mine: sender.type === 'visitor' && sender.id === grant.visitorId },
          ...(message.notice === undefined ? {} : { notice: message.notice }),
        },
      };
    }
    const { conversation } = envelope.data;
    return { id: envelope.id, type: 'status', data: { status: conversation.status, isAiEnabled: conversation.isAiEnabled } };
  }

  private visitorMessage(message: ConversationView['messages'][number], view: ConversationView): VisitorMessage {
    const sender = senderOf(message, view);
    return {
      id: message.id,
      from: message.from,
      text: message.text,
      createdAt: message.createdAt,
      sender: sender && { type: sender.type, name: sender.type === 'visitor' ? null : sender.name },
      eval: message.eval,
      sources: sourceLabels(message.sources),
      ...(message.notice === null ? {} : { notice: message.notice }),
    };
  }

  /** The caller's grant for this public agent's conversation; 401 without a visitor token, 404 for another agent. */
  private async grantFor(caller: Caller, agentId: string, origin: string | undefined): Promise<VisitorGrant> {
    if (caller.kind !== 'visitor') throw unauthorized('Send the visitor token of the conversation');
    const agent = await usableAgent(this.store.agents, caller, agentId, origin);
    const { grant } = caller;
    if (grant.agentId !== agent.id || grant.workspaceId !== agent.workspaceId) {
      throw new ParleyError('NOT_FOUND', 'This agent has no conversation for this visitor token');
    }
    return grant;
  }
}
