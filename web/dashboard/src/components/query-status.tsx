import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../api';

/** A loading line that screen readers announce; `fullPage` centres it in the window. */
export function LoadingState({ label = 'Loading…', fullPage = false }: { label?: string; fullPage?: boolean }) {
  return (
    <div className={fullPage ? 'state state-full' : 'state'} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

/** What went wrong in words, the request id to quote, and a way to try again. */
export function ErrorState({ error, retry, fullPage = false }: { error: unknown; retry?: () => void; fullPage?: boolean }) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  const forbidden = error instanceof ApiError && error.status === 403;
  return (
    <div className={fullPage ? 'state state-full state-error' : 'state state-error'} role="alert">
      <p>
        <strong>{forbidden ? 'Not allowed. ' : 'This could not be loaded. '}</strong>
        {message}
      </p>
      {requestId !== undefined && <p className="muted small">Request id: {requestId}</p>}
      {retry !== undefined && !forbidden && (
        <button type="button" className="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

interface QueryViewProps<T> {
  query: UseQueryResult<T>;
  /** The loading line, e.g. "Loading keys…". */
  loading: string;
  /** Shown instead of `children` when the data is an empty list: what that means and the next step. */
  empty?: ReactNode;
  /** What the data looks like once it is there. */
  children: (data: T) => ReactNode;
}

/** A query's data once it has arrived; until then its loading line, and if it failed, why, with a way to try again. */
export function QueryView<T>({ query, loading, empty, children }: QueryViewProps<T>) {
  if (query.isPending) return <LoadingState label={loading} />;
  if (query.isError) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  if (empty !== undefined && Array.isArray(query.data) && query.data.length === 0) return empty;
  return children(query.data);
}
