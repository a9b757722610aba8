import type { ReactNode } from 'react';
import { UnreadInTitle } from '../components/page-title';
import { useOpenUnread } from '../queries/conversations';

/** The number of unread open conversations beside the inbox's link. */
export function InboxBadge() {
  const unread = useOpenUnread();
  if (unread === 0) return null;
  return (
    <span className="nav-badge">
      {unread > 99 ? '99+' : unread}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}

/** Puts the same number in the window title of every page. */
export function UnreadTitle({ children }: { children: ReactNode }) {
  return <UnreadInTitle.Provider value={useOpenUnread()}>{children}</UnreadInTitle.Provider>;
}
