import { escapeHtml } from '../text/escape-html.js';
import type { RenderedEmail } from './notification-email.js';

/** The e-mail that answers "Forgot password?", as plain text and HTML. */
export function renderPasswordResetEmail({ url }: { url: string }): RenderedEmail {
  const intro = 'Someone asked to reset the password of your Parley account with this address.';
  const after =
    'The link works once and for 24 hours; choosing a new password signs you out everywhere. If you did not ask, ignore this e-mail: your password stays as it is.';
  return {
    subject: 'Reset your Parley password',
    text: [intro, '', `Choose a new password: ${url}`, '', after].join('\n'),
    html: [`<p>${escapeHtml(intro)}</p>`, `<p><a href="${escapeHtml(url)}">Choose a new password</a></p>`, `<p>${escapeHtml(after)}</p>`].join('\n'),
  };
}
