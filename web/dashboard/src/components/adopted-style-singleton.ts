import { useEffect } from 'react';

/**
 * `styleSingleton` of react-style-singleton, which Radix's scroll lock (react-remove-scroll and its
 * scroll-bar part) uses to lock the page behind a dialog: the same counting (the styles of the first
 * mounted instance stay until the last one unmounts, changed only when `dynamic`), but the styles go into
 * a constructed stylesheet the document adopts instead of an inline <style> element, which the dashboard's
 * CSP (`style-src 'self'`) refuses; a constructed sheet is no inline style. The build puts this module in
 * the package's place (vite.config.ts).
 */
export function styleSingleton() {
  let mounted = 0;
  let sheet: CSSStyleSheet | null = null;
  const add = (styles: string) => {
    if (mounted++ > 0) return;
    sheet = new CSSStyleSheet();
    sheet.replaceSync(styles);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  };
  const remove = () => {
    if (--mounted > 0 || sheet === null) return;
    const removed = sheet;
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== removed);
    sheet = null;
  };
  return function Sheet({ styles, dynamic = false }: { styles: string; dynamic?: boolean }) {
    useEffect(() => {
      add(styles);
      return remove;
      // As the package: added once per mount, again on a change only when dynamic.
      // eslint-disable-next-line react-hooks/exhaustive-deps -- the styles of a static sheet are read once, on purpose
    }, [dynamic && styles]);
    return null;
  };
}
