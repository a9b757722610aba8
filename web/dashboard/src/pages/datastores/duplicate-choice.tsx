import { ApiError } from '../../api';
import type { OnDuplicateChoice } from '../../../../../src/contract/datasources';

/** The datasource already holding what was being added, when the API refused it as a duplicate. */
export type DuplicateHolder = NonNullable<ApiError['existing']>;

export const duplicateHolder = (error: unknown): DuplicateHolder | undefined =>
  error instanceof ApiError && error.code === 'DUPLICATE_DATASOURCE' ? error.existing : undefined;

interface DuplicateChoiceProps {
  holder: DuplicateHolder;
  /** What was being added, in words: "this file", "this page". */
  what: string;
  pending?: boolean;
  choose: (choice: Extract<OnDuplicateChoice, 'replace' | 'keep_both'>) => void;
}

/**
 * The datastore holds this content (or this page) already: says which datasource does, and lets the person
 * replace it (same datasource, indexed again with what they sent) or keep both.
 */
export function DuplicateChoice({ holder, what, pending = false, choose }: DuplicateChoiceProps) {
  return (
    <div className="alert alert-warning duplicate-choice" role="alert">
      <p>
        The datastore already has {what}, as “{holder.name}”.
      </p>
      <div className="duplicate-choice-actions">
        <button type="button" className="button button-small" disabled={pending} onClick={() => choose('replace')}>
          Replace
        </button>
        <button type="button" className="button button-small button-quiet" disabled={pending} onClick={() => choose('keep_both')}>
          Keep both
        </button>
      </div>
    </div>
  );
}
