import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { DateTime } from './date-time';

/** One fact on a card: a term and its value (`mono` for identifiers such as model names). */
export interface CardFact {
  term: string;
  value: ReactNode;
  mono?: boolean;
}

interface ResourceCardProps {
  href: string;
  name: string;
  description: string;
  visibility: 'public' | 'private';
  /** Facts shown before the visibility and the time of the last change. */
  facts: readonly CardFact[];
  updatedAt: string;
}

/** An agent or a datastore in its list: its name linking to its page, what it is for and a few facts. */
export function ResourceCard({ href, name, description, visibility, facts, updatedAt }: ResourceCardProps) {
  const all: readonly CardFact[] = [
    ...facts,
    { term: 'Visibility', value: visibility === 'public' ? 'Public' : 'Private' },
    { term: 'Changed', value: <DateTime iso={updatedAt} relative /> },
  ];
  return (
    <li className="card">
      <h2 className="card-title">
        <Link href={href}>{name}</Link>
      </h2>
      {description !== '' && <p className="card-text">{description}</p>}
      <dl className="card-facts">
        {all.map(({ term, value, mono = false }) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd {...(mono ? { className: 'mono' } : {})}>{value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}
