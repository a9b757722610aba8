import { createContext, useContext, useEffect } from 'react';

/** How many conversations wait unread: the window title starts with it, so it shows in the browser's tab. */
export const UnreadInTitle = createContext(0);

/**
 * The window's title for the page shown: `<page> · Parley`, after `(<unread>) ` while some wait. Null
 * leaves it to a part of the page that knows better (an open conversation names itself).
 */
export function usePageTitle(title: string | null): void {
  const unread = useContext(UnreadInTitle);
  useEffect(() => {
    if (title === null) return;
    document.title = `${unread > 0 ? `(${unread}) ` : ''}${title === '' ? 'Parley' : `${title} · Parley`}`;
  }, [title, unread]);
}
