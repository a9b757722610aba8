import { button } from './controls.js';
import { h } from './element.js';
import { safeHref } from './markdown.js';
import type { Strings } from './strings/index.js';

interface PanelHeaderProps {
  t: Strings;
  title: string;
  /** The id the panel is labelled by. */
  titleId: string;
  /** The avatar's address: shown when it is a web address. */
  avatarUrl: string;
  newConversation(): void;
  /** The close button's action; none for an inline panel, which cannot close. */
  close: (() => void) | null;
}

/** The panel's title bar in the accent colour: avatar, title, "new conversation" and (floating) close. */
export function panelHeader({ t, title, titleId, avatarUrl, newConversation, close }: PanelHeaderProps): HTMLDivElement {
  const avatar = safeHref(avatarUrl);
  // A <header> here would be a second banner landmark on the host page, which has its own.
  return h(
    'div',
    { class: 'head' },
    avatar && avatar.startsWith('http') ? h('img', { src: avatar, alt: '' }) : null,
    h('h2', { id: titleId }, title),
    button('icon', t.newConversation, newConversation, '+'),
    close ? button('icon', t.close, close, '✕') : null,
  );
}
