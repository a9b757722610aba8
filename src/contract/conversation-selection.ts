import { Type, type Static } from '@sinclair/typebox';
import { CHANNEL_INPUTS } from './channels.js';
import { Status } from './conversations.js';
import { StringEnum } from './json-schema.js';

/** Which conversations a list, the inbox counts and a bulk status change take (`GET /user-conversations` and its kin). */

export const Channel = StringEnum(CHANNEL_INPUTS, {
  description: 'Where the conversation takes place; the hosted service’s names are read as the spec’s (whatsapp as messenger_a, email as mail, …)',
});

export const DateBound = (description: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], { description });

/** What narrows a list of conversations; the inbox counts and bulk status changes take the same. */
export const ConversationSelection = Type.Object({
  agentId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only conversations with this agent' })),
  channel: Type.Optional(Channel),
  channelExternalId: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'The channel’s own id' })),
  status: Type.Optional(Status),
  open: Type.Optional(Type.Boolean({ description: 'true: only conversations not resolved (UNRESOLVED or HUMAN_REQUESTED)' })),
  assigneeId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only conversations assigned to this member' })),
  unassigned: Type.Optional(Type.Boolean({ description: 'true: only conversations assigned to nobody' })),
  search: Type.Optional(
    Type.String({ maxLength: 500, description: 'Case-insensitive text in the title, the contact’s name, e-mail or phone, or any message' }),
  ),
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only conversations carrying this label (a label id)' })),
  startDate: Type.Optional(DateBound('Conversations created from then on (a date means from its start, UTC)')),
  endDate: Type.Optional(DateBound('Conversations created up to then (a date means to its end, UTC)')),
  includePlayground: Type.Optional(
    Type.Boolean({
      description:
        'true: also the conversations members started in the dashboard’s playground (the team’s own tests), left out ' +
        'otherwise. Conversations started with an API key are never playground ones, whatever their channel.',
    }),
  ),
});

export type ConversationSelectionQuery = Static<typeof ConversationSelection>;

/** The fields an inbox tab sets (src/contract/inbox-tabs.ts); the others narrow whatever the tab. */
export type TabFields = 'status' | 'open' | 'assigneeId' | 'unassigned';

/** What narrows conversations beside the inbox tabs: what the counts are taken under. */
export type ConversationFilterQuery = Omit<ConversationSelectionQuery, TabFields>;
