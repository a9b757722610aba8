import type { ChatSession, Contact } from './chat-session.js';
import { button } from './controls.js';
import { h } from './element.js';
import type { WidgetConfig } from './parley-client.js';
import type { Strings } from './strings/index.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()./-]{5,40}$/;

interface LeadFormProps {
  t: Strings;
  rules: WidgetConfig['widget']['leadForm'];
  title: string;
  /** Prefix of the ids that tie each field to its error. */
  id: string;
  /** The checked details; the submit button waits until this settles. */
  give(contact: Contact): Promise<void>;
  /** "Not now", offered when no field is required. */
  skip(): void;
}

/** The form asking for the visitor's details, each field as the agent's settings ask; null when they ask none. */
function leadForm({ t, rules, title, id, give, skip }: LeadFormProps): HTMLFormElement | null {
  const fields: { key: keyof Contact; label: string; type: string; autocomplete: string; rule: string; check?: RegExp; bad?: string }[] = [
    { key: 'name', label: t.name, type: 'text', autocomplete: 'name', rule: rules.name },
    { key: 'email', label: t.email, type: 'email', autocomplete: 'email', rule: rules.email, check: EMAIL, bad: t.badEmail },
    { key: 'phone', label: t.phone, type: 'tel', autocomplete: 'tel', rule: rules.phone, check: PHONE, bad: t.badPhone },
  ];
  const shown = fields.filter((field) => field.rule !== 'off');
  if (shown.length === 0) return null;
  const form = h('form', { class: 'lead', novalidate: true }, h('p', {}, title));
  const inputs = shown.map((field, index) => {
    const errorId = `${id}-${index}`;
    const input = h('input', { type: field.type, name: field.key, autocomplete: field.autocomplete, 'aria-describedby': errorId });
    if (field.rule === 'required') input.setAttribute('aria-required', 'true');
    const error = h('span', { class: 'bad', id: errorId, 'aria-live': 'polite' });
    // The error sits beside the label, not in it: it describes the field without renaming it.
    form.append(h('label', {}, `${field.label}${field.rule === 'optional' ? ` ${t.optional}` : ''}`, input), error);
    return { field, input, error };
  });
  const submit = h('button', { type: 'submit', class: 'send' }, t.submit);
  const row = h('div', { class: 'row' }, submit);
  if (shown.every((field) => field.rule !== 'required')) row.append(button('link', t.skip, skip));
  form.append(row);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    let firstBad: HTMLInputElement | null = null;
    const contact: Contact = {};
    for (const { field, input, error } of inputs) {
      const value = input.value.trim();
      const problem = !value ? (field.rule === 'required' ? t.required : '') : field.check && !field.check.test(value) ? (field.bad ?? '') : '';
      error.textContent = problem;
      input.setAttribute('aria-invalid', problem ? 'true' : 'false');
      if (problem) firstBad ??= input;
      else if (value) contact[field.key] = value;
    }
    if (firstBad) return firstBad.focus();
    submit.disabled = true;
    void give(contact).finally(() => (submit.disabled = false));
  });
  return form;
}

interface LeadSlotProps {
  t: Strings;
  rules: WidgetConfig['widget']['leadForm'];
  /** Prefix of the ids that tie each field to its error. */
  id: string;
  session: ChatSession;
  /** Says how storing went, as a notice line (`error`: as an alert). */
  notice(text: string, error?: boolean): void;
  /** The visitor is done with the form: the question field takes the focus back. */
  done(): void;
}

/**
 * Where the lead form shows, and what becomes of the details: stored at once when there is a conversation,
 * else kept by the session for the one the first answer starts. The page's details (`Parley.identify`)
 * take the same way, without the form.
 */
export class LeadSlot {
  readonly element = h('div');
  readonly #props: LeadSlotProps;

  constructor(props: LeadSlotProps) {
    this.#props = props;
  }

  /** The form's first field, when the form shows. */
  get field(): HTMLInputElement | null {
    return this.element.querySelector('input');
  }

  /** Asking waits while the form shown before the first question is open: its first field takes the focus. */
  blocks(): boolean {
    const field = this.field;
    if (field === null || this.#props.rules.mode !== 'before-first-question') return false;
    field.focus();
    return true;
  }

  /** Shows the form before the first question, as the settings ask, unless the visitor is done with it. */
  offerBefore(): void {
    const { rules, session, t } = this.#props;
    if (rules.mode === 'before-first-question' && !session.leadDone) this.#show(t.leadTitle);
  }

  /** Shows the form after an answer, as the settings ask, unless the visitor is done with it or it shows already. */
  offerAfter(): void {
    const { rules, session, t } = this.#props;
    if (rules.mode === 'after-first-answer' && !session.leadDone && this.element.childElementCount === 0) this.#show(t.leadTitleAfter);
  }

  clear(): void {
    this.element.replaceChildren();
  }

  /** Stores the details now, or with the first question when there is no conversation yet. */
  async give(contact: Contact, form: boolean): Promise<void> {
    const { session, done } = this.#props;
    if (session.token) return this.deliver(contact, form);
    session.keepContact(contact, form);
    this.clear();
    done();
  }

  /**
   * Thanks the visitor only once the server has stored the details; when it could not, says so and,
   * for details the visitor typed, keeps (or brings back) the form to send them again.
   */
  async deliver(contact: Contact, form: boolean): Promise<void> {
    const { session, notice, done, t } = this.#props;
    if (await session.saveContact(contact)) {
      this.clear();
      if (form) {
        notice(t.thanks);
        done();
      }
      return;
    }
    notice(t.leadFailed, true);
    if (form && this.element.childElementCount === 0) this.#show(t.leadTitleAfter);
  }

  #show(title: string): void {
    const { t, rules, id, session, done } = this.#props;
    const form = leadForm({
      t,
      rules,
      title,
      id,
      give: (contact) => this.give(contact, true),
      skip: () => {
        session.putLeadAside();
        this.clear();
        done();
      },
    });
    if (form) this.element.replaceChildren(form);
  }
}
