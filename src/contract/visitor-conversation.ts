import { Type, type Static } from '@sinclair/typebox';
import { Eval, SourceLabels, Status } from './conversations.js';
import { Nullable, StringEnum, Timestamp } from './json-schema.js';

/** A visitor's own conversation as the chat widget reads, changes and follows it (`/agents/{id}/conversation…`). */
export const Sender = Nullable(
  Type.Object({
    type: StringEnum(['user', 'visitor', 'agent'], { description: 'user: a person of the team; visitor: you; agent: the AI' }),
    name: Nullable(Type.String({ description: 'The person’s or the agent’s name; null for the visitor' })),
  }),
  { description: 'Null for system notices' },
);

export const Notice = Type.Union(
  [
    Type.Object({ kind: Type.Literal('humanRequested'), email: Type.Optional(Type.String({ description: 'Where the team can also reply' })) }),
    Type.Object({ kind: Type.Literal('personJoined'), name: Type.String({ description: 'The member who took over' }) }),
    Type.Object({ kind: Type.Literal('aiSwitchedOff') }),
    Type.Object({ kind: Type.Literal('reopened') }),
  ],
  {
    description:
      'On system notices the server wrote: what it tells, by kind, so a client can word it in its visitor’s language ' +
      '(`text` is the English wording). humanRequested: a person will answer; personJoined: a member took over; ' +
      'aiSwitchedOff: the agent was switched off, nobody named; reopened: the visitor’s message reopened a resolved ' +
      'conversation. Show `text` for a kind you do not know.',
  },
);

export const VisitorTranscript = Type.Object({
  conversationId: Type.String(),
  status: Status,
  isAiEnabled: Type.Boolean({ description: 'False while a person answers instead of the agent' }),
  messages: Type.Array(
    Type.Object({
      id: Type.String(),
      from: StringEnum(['human', 'agent', 'system']),
      text: Type.String(),
      createdAt: Timestamp('When it was written'),
      sender: Sender,
      eval: Eval,
      sources: SourceLabels,
      notice: Type.Optional(Notice),
    }),
    { description: 'Oldest first; newest first from GET /conversations/{id}, the hosted widget’s read' },
  ),
});

export const StatusBody = Type.Object({
  status: StringEnum(['HUMAN_REQUESTED', 'RESOLVED'], { description: 'HUMAN_REQUESTED: talk to a person; RESOLVED: it is answered' }),
});

export const RatingBody = Type.Object({
  messageId: Type.String({ minLength: 1, maxLength: 200, description: 'An agent answer of this conversation' }),
  eval: Nullable(StringEnum(['GOOD', 'BAD'], { description: 'null clears the rating' })),
});

export const ContactBody = Type.Object(
  {
    firstName: Type.Optional(Type.String({ maxLength: 200 })),
    lastName: Type.Optional(Type.String({ maxLength: 200 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
    phoneNumber: Type.Optional(
      Type.String({ pattern: '^\\+?[0-9 ()./-]{5,40}$', description: 'Digits with spaces, dots, dashes, brackets; a leading + for the country' }),
    ),
  },
  { description: 'Who the visitor says they are (the widget’s lead form); at least one field' },
);

export type VisitorTranscriptBody = Static<typeof VisitorTranscript>;
export type VisitorMessageBody = VisitorTranscriptBody['messages'][number];
export type NoticeBody = Static<typeof Notice>;
export type VisitorStatusBody = Static<typeof StatusBody>;
export type VisitorContactBody = Static<typeof ContactBody>;

/**
 * The frames of `GET /agents/{id}/conversation/events`, by event name: a message as the transcript shows it
 * (without rating and sources, `mine` on the visitor's own), a status change, and `ready` after the backlog.
 */
export interface VisitorStreamPayloads {
  message: Pick<VisitorMessageBody, 'id' | 'from' | 'text' | 'createdAt' | 'notice'> & {
    sender: (NonNullable<VisitorMessageBody['sender']> & { mine: boolean }) | null;
  };
  status: { status: VisitorTranscriptBody['status']; isAiEnabled?: boolean };
  ready: { resumed: boolean };
}

/** A frame of the visitor's stream with an id (every one but `ready`). */
export type VisitorStreamEvent = {
  [Type in Exclude<keyof VisitorStreamPayloads, 'ready'>]: { id: string; type: Type; data: VisitorStreamPayloads[Type] };
}[Exclude<keyof VisitorStreamPayloads, 'ready'>];
