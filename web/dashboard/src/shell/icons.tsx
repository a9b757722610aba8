/** The few line icons of the navigation, drawn inline (no icon font, nothing fetched). */
const PATHS = {
  inbox: 'M4 13l2.5-8h11L20 13v6H4v-6zm0 0h5l1 2h4l1-2h5',
  agents: 'M12 3a4 4 0 1 1 0 8 4 4 0 0 1 0-8zm-7 17c0-3.3 3.1-6 7-6s7 2.7 7 6',
  datastores: 'M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zm0 0v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3',
  analytics: 'M4 20h16M7 16v-4m5 4V8m5 8v-6',
  settings:
    'M12 9a3 3 0 1 1 0 6 3 3 0 0 1 0-6zm8.5 3c0-.6-.1-1.1-.2-1.6l2-1.5-2-3.4-2.3 1a8 8 0 0 0-2.8-1.6L14.8 2h-4l-.4 2.5a8 8 0 0 0-2.8 1.6l-2.3-1-2 3.4 2 1.5a8 8 0 0 0 0 3.2l-2 1.5 2 3.4 2.3-1a8 8 0 0 0 2.8 1.6l.4 2.5h4l.4-2.5a8 8 0 0 0 2.8-1.6l2.3 1 2-3.4-2-1.5c.1-.5.2-1 .2-1.6z',
  menu: 'M4 6h16M4 12h16M4 18h16',
  chevron: 'M7 10l5 5 5-5',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
