import type { BrowserContext, Page } from 'playwright-core';
import type { ReceivedMail } from '../../support/smtp-sink.js';

/** Signs in on the sign-in page and waits for the page it leads to. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: /^Account menu/ }).waitFor();
}

/** Signs out with the account menu; the sign-in page follows. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

/** Gives the browser a session made by the harness (`newMember`), as if the person had signed in. */
export async function useSession(context: BrowserContext, baseUrl: string, sessionSecret: string): Promise<void> {
  await context.addCookies([{ name: 'parley_session', value: sessionSecret, url: baseUrl, httpOnly: true, sameSite: 'Strict' }]);
}

/**
 * The dashboard link in an e-mail, on the test's server: the server writes links with PARLEY_PUBLIC_URL,
 * which names port 0 when the test lets it pick a free one.
 */
export function dashboardLinkIn(mail: ReceivedMail, baseUrl: string): string {
  const found = /https?:\/\/\S+?(\/dashboard\/[^\s"<>]+)/.exec(mail.mail.text ?? '');
  if (found?.[1] === undefined) throw new Error(`no dashboard link in the e-mail: ${mail.mail.text}`);
  return baseUrl + found[1].replace(/&amp;/g, '&');
}
