import { QaEntryDialog } from '../../components/qa-entry-dialog';
import { useAgent } from '../../queries/agents';
import type { ConversationDetail, ThreadMessage } from '../../queries/conversations';
import { useDatastores } from '../../queries/datastores';

/** The visitor's message an agent answer replies to: the last one before it. */
const questionBefore = (messages: readonly ThreadMessage[], answer: ThreadMessage): string =>
  messages.slice(0, messages.indexOf(answer)).findLast((message) => message.from === 'human' && message.sender?.type !== 'user')?.text ?? '';

/**
 * "Improve" under an agent answer: the answer edited, with its question, becomes a Q&A entry of one of the
 * agent's datastores, so that the same question is answered so from then on. Absent when the agent has none.
 */
export function ImproveAnswer({ conversation, message }: { conversation: ConversationDetail; message: ThreadMessage }) {
  const agentId = conversation.agent?.id ?? '';
  const agent = useAgent(agentId);
  const datastores = useDatastores();
  if (agentId === '' || agent.data === undefined || datastores.data === undefined) return null;
  const names = new Map(datastores.data.map((datastore) => [datastore.id, datastore.name]));
  const targets = agent.data.tools.map((tool) => ({ id: tool.datastoreId, name: names.get(tool.datastoreId) ?? tool.datastoreId }));
  if (targets.length === 0) return null;
  return (
    <QaEntryDialog
      title="Improve this answer"
      description={`Edit the answer; saved as a Q&A entry, it is what ${conversation.agent?.name ?? 'the agent'} says from now on to this question and those worded closely.`}
      draft={{ question: questionBefore(conversation.messages, message), answer: message.text }}
      destination={{ datastores: targets, sourceMessageId: message.id }}
      trigger={
        <button type="button" className="button button-small button-quiet">
          Improve
        </button>
      }
    />
  );
}
