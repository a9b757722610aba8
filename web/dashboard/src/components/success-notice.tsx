import type { ReactNode } from 'react';

/** What an action did, once it has worked (by default "Saved."), announced politely to screen readers. */
export function SuccessNotice({ shown, children = 'Saved.' }: { shown: boolean; children?: ReactNode }) {
  if (!shown) return null;
  return (
    <div className="alert alert-success" role="status">
      {children}
    </div>
  );
}
