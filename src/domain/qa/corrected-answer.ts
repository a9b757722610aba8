import { forbidden, invalid, notFound } from '../../errors.js';
import type { Store } from '../../store/store.js';

/** The agent answer a correction replaces: the workspace's, written by an agent, and that agent searches the datastore. */
export async function checkCorrectedAnswer(store: Store, workspaceId: string, datastoreId: string, messageId: string): Promise<void> {
  const message = await store.messages.find(workspaceId, messageId);
  if (message === undefined) {
    throw (await store.messages.ownerOf(messageId)) === undefined ? notFound('Message', messageId) : forbidden('Message', messageId);
  }
  const field = 'config.sourceMessageId';
  if (message.from !== 'agent') throw invalid('Only an agent answer is corrected', [{ field, message: 'not an agent answer' }]);
  const conversation = await store.conversations.find(workspaceId, message.conversationId);
  const agentId = conversation?.agentId ?? null;
  const agent = agentId === null ? undefined : await store.agents.find(workspaceId, agentId);
  if (agent !== undefined && !agent.datastoreIds.includes(datastoreId)) {
    throw invalid(`The agent that answered does not search datastore ${datastoreId}`, [
      { field: 'datastoreId', message: "not one of the agent's datastores" },
    ]);
  }
}
