import type { SendMailOptions } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';

/** A raw RFC 5322 message built by nodemailer's composer, as a mail server would hand it on. */
export function rawMail(options: SendMailOptions): Promise<Buffer> {
  return new MailComposer({ from: 'Jane Doe <jane@example.com>', to: 'support@shop.example', subject: 'Hello', text: 'Hi there', ...options })
    .compile()
    .build();
}
