import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from './json-schema.js';

/** `GET /analytics`: a workspace's report over a range of days. */

/** Datasources listed, the most cited first. */
export const TOP_DATASOURCES = 10;
/** Knowledge gaps listed, the most asked first. */
export const KNOWLEDGE_GAP_LIMIT = 50;

export const Day = (description: string) => Type.String({ format: 'date', description });

const Count = (description: string) => Type.Integer({ minimum: 0, description });

const Rate = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 1 }), { description });

export const Report = Type.Object({
  from: Day('First day of the range'),
  to: Day('Last day of the range, included'),
  agentId: Nullable(Type.String()),
  channel: Nullable(Type.String()),
  includePlayground: Type.Boolean({ description: 'Whether the playground’s conversations count' }),
  conversations: Type.Object(
    {
      total: Count('Conversations started in the range'),
      resolved: Count('Of them, those now RESOLVED'),
      humanRequested: Count(
        'Of them, those that were HUMAN_REQUESTED at any time (asked for a person), whatever their status now: ' +
          'taken over or resolved since still counts',
      ),
      resolutionRate: Rate('resolved / total; null without conversations'),
      humanRequestedRate: Rate('humanRequested / total; null without conversations'),
      messages: Count('Their messages from visitors, the agent and members (system notices left out)'),
      messagesPerConversation: Nullable(Type.Number({ minimum: 0 }), { description: 'messages / total' }),
      humanReplied: Count('Conversations in which a member replied after the visitor’s first message'),
      medianSecondsToFirstHumanReply: Nullable(Type.Number({ minimum: 0 }), {
        description: 'Median, over those, of the seconds from the visitor’s first message to the first member reply',
      }),
    },
    { description: 'About the conversations started in the range' },
  ),
  perDay: Type.Array(
    Type.Object({
      date: Day('A day of the range'),
      total: Count('Conversations started that day'),
      byChannel: Type.Record(Type.String(), Type.Integer({ minimum: 1 }), { description: 'Per channel with conversations that day' }),
    }),
    { description: 'Every day of the range, oldest first, days without conversations included' },
  ),
  channels: Type.Array(Type.String(), { description: 'Channels of the range’s conversations, the busiest first' }),
  availableChannels: Type.Array(Type.String(), {
    description:
      'Channels of the range’s conversations whatever the channel filter (of the agent, when one is chosen), by name: what the channel filter can pick',
  }),
  ratings: Type.Object(
    { good: Count('Agent answers rated GOOD'), bad: Count('Agent answers rated BAD') },
    { description: 'Of the agent answers written in the range' },
  ),
  topDatasources: Type.Array(
    Type.Object({
      datasourceId: Type.String(),
      name: Type.String({ description: 'Its name; the name it was cited under once deleted' }),
      datastoreId: Nullable(Type.String({ description: 'Null once the datasource is deleted' })),
      citations: Count('Agent answers citing it'),
    }),
    { description: `The ${TOP_DATASOURCES} datasources the agent answers written in the range cited most` },
  ),
  knowledgeGaps: Type.Object(
    {
      total: Count('Distinct questions (per agent)'),
      items: Type.Array(
        Type.Object({
          question: Type.String({ description: 'The latest wording asked' }),
          count: Count('Times it was asked (repeats differing in case, punctuation or spacing included)'),
          firstAskedAt: Timestamp('When it was first asked in the range'),
          lastAskedAt: Timestamp('When it was last asked'),
          conversationId: Type.String({ description: 'The conversation it was last asked in' }),
          agent: Nullable(
            Type.Object({
              id: Type.String(),
              name: Type.String(),
              datastoreIds: Type.Array(Type.String(), { description: 'Where a document answering it would go' }),
            }),
            { description: 'The agent asked; null once deleted' },
          ),
        }),
        { description: `The ${KNOWLEDGE_GAP_LIMIT} most asked first` },
      ),
    },
    {
      description:
        'Questions the agent answers written in the range could not answer from the datastores: retrieval found ' +
        'nothing, the answerer said so, or the best passage scored below PARLEY_KNOWLEDGE_GAP_SCORE',
    },
  ),
});

export type AnalyticsBody = Static<typeof Report>;
