import { escapeHtml } from '../text/escape-html.js';
import type { RenderedEmail } from './notification-email.js';

export interface InvitationEmailInput {
  workspaceName: string;
  role: string;
  url: string;
}

/** The e-mail that invites a person into a workspace, as plain text and HTML (the workspace name escaped). */
export function renderInvitationEmail({ workspaceName, role, url }: InvitationEmailInput): RenderedEmail {
  const intro = `You are invited to join the workspace “${workspaceName}” on Parley as ${role === 'admin' ? 'an admin' : `a ${role}`}.`;
  const after = 'The link works once and for seven days.';
  return {
    subject: `Join ${workspaceName} on Parley`,
    text: [intro, '', `Accept the invitation: ${url}`, '', after].join('\n'),
    html: [`<p>${escapeHtml(intro)}</p>`, `<p><a href="${escapeHtml(url)}">Accept the invitation</a></p>`, `<p>${escapeHtml(after)}</p>`].join('\n'),
  };
}
