import { h } from './element.js';
import type { LiveMessage } from './parley-client.js';
import type { Strings } from './strings/index.js';

type Line = (string | Node)[];

/**
 * A notice the server wrote, in the visitor's language: its kind worded by the widget, the e-mail or name
 * filled in as text (in a <bdi>, so a name in another script keeps its own direction). The stored English
 * text for a kind this widget does not know, or a system message without one.
 */
export function noticeLine(t: Strings, message: Pick<LiveMessage, 'text' | 'notice'>): Line {
  const { notice } = message;
  switch (notice?.kind) {
    case 'humanRequested':
      return notice.email === undefined ? [t.humanRequested] : fill(t.humanRequestedEmail, notice.email);
    case 'personJoined':
      return fill(t.personJoined, notice.name);
    case 'aiSwitchedOff':
      return [t.aiSwitchedOff];
    case 'reopened':
      return [t.reopened];
    default:
      return [message.text];
  }
}

/** `template` with its one `{…}` slot holding `value`. */
function fill(template: string, value: string): Line {
  const [before = '', after = ''] = template.split(/\{\w+\}/);
  return [before, h('bdi', {}, value), after];
}
