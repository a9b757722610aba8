import type { ReactNode } from 'react';
import { channelLabel } from '../../components/channel-label';
import { DateTime } from '../../components/date-time';
import type { ConversationDetail } from '../../queries/conversations';
import { browserName } from './browser-name';

const fullName = (person: { firstName: string | null; lastName: string | null }) => [person.firstName, person.lastName].filter(Boolean).join(' ');

/** Metadata values as text: strings as they are, anything else as JSON. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A URL the widget reported, as a link that tells the page nothing of where it was followed from. */
function PageLink({ url }: { url: string }) {
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" className="break">
      {url}
    </a>
  );
}

/** Where the visitor was when the conversation started: page, referrer, language, browser; and whether they came before. */
function VisitorContextFacts({ conversation }: { conversation: ConversationDetail }) {
  const context = conversation.visitorContext;
  const browser = context?.userAgent ? browserName(context.userAgent) : null;
  const earlier = conversation.visitorConversations;
  return (
    <dl className="facts">
      <Fact term="Returning visitor">
        {earlier > 0 ? `Yes: ${earlier} earlier conversation${earlier === 1 ? '' : 's'}` : 'No: first conversation'}
      </Fact>
      {context === null ? (
        <Fact term="Page">
          <span className="muted">Not reported</span>
        </Fact>
      ) : (
        <>
          <Fact term="Page">{context.pageUrl ? <PageLink url={context.pageUrl} /> : <span className="muted">Not reported</span>}</Fact>
          <Fact term="Referrer">{context.referrer ? <PageLink url={context.referrer} /> : <span className="muted">None</span>}</Fact>
          {context.language && <Fact term="Language">{context.language}</Fact>}
          {context.userAgent && (
            <Fact term="Browser">
              <span title={context.userAgent}>{browser ?? 'Unknown'}</span>
            </Fact>
          )}
        </>
      )}
    </dl>
  );
}

/** Who the visitor is (their contact details) and what is known about the conversation. */
export function VisitorPanel({ conversation }: { conversation: ConversationDetail }) {
  const contact = conversation.participantsContacts[0];
  const name = contact && fullName(contact);
  const email = contact?.email;
  const phone = contact?.phoneNumber;
  const metadata = Object.entries(conversation.metadata);
  return (
    // Focusable: it scrolls on its own, and the keyboard must be able to scroll it.
    <aside className="visitor-panel" aria-label="Visitor and conversation details" tabIndex={0}>
      <h3>Visitor</h3>
      <dl className="facts">
        <Fact term="Name">{name || <span className="muted">Not given</span>}</Fact>
        <Fact term="E-mail">{email ? <a href={`mailto:${email}`}>{email}</a> : <span className="muted">Not given</span>}</Fact>
        {phone && <Fact term="Phone">{phone}</Fact>}
        {conversation.participantsVisitors.length > 0 && (
          <Fact term={conversation.participantsVisitors.length === 1 ? 'Visitor id' : 'Visitor ids'}>
            {conversation.participantsVisitors.map((visitor) => (
              <span key={visitor.id} className="mono break block">
                {visitor.id}
              </span>
            ))}
          </Fact>
        )}
      </dl>
      <h3>Visit</h3>
      <VisitorContextFacts conversation={conversation} />
      <h3>Conversation</h3>
      <dl className="facts">
        <Fact term="Channel">
          {channelLabel(conversation.channel)}
          {conversation.channelExternalId && <span className="mono break block">{conversation.channelExternalId}</span>}
        </Fact>
        <Fact term="Agent">{conversation.agent?.name ?? <span className="muted">None</span>}</Fact>
        <Fact term="Agent answers">{conversation.isAiEnabled ? 'Yes' : 'No: a person answers'}</Fact>
        <Fact term="Started">
          <DateTime iso={conversation.createdAt} />
        </Fact>
        <Fact term="Last activity">
          <DateTime iso={conversation.updatedAt} />
        </Fact>
        <Fact term="Id">
          <span className="mono break">{conversation.id}</span>
        </Fact>
      </dl>
      <h3>Metadata</h3>
      {metadata.length === 0 ? (
        <p className="muted small">None.</p>
      ) : (
        <dl className="facts">
          {metadata.map(([key, value]) => (
            <Fact key={key} term={key}>
              <span className="break">{asText(value)}</span>
            </Fact>
          ))}
        </dl>
      )}
    </aside>
  );
}
