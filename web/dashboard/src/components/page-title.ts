import { useEffect } from 'react';

/** The window's title for the page shown: `<page> · Parley`. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title === '' ? 'Parley' : `${title} · Parley`;
  }, [title]);
}
