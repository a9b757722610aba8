import { h } from './element.js';
import { link, renderMarkdown, safeHref } from './markdown.js';
import { noticeLine } from './notice-line.js';
import { CallFailed, type ConversationStatus, type LiveMessage, type ParleyClient, type Rating, type Source, type WidgetConfig } from './parley-client.js';
import { pickLanguage, type Strings } from './strings/index.js';
import type { VisitorStore } from './visitor-store.js';
import { accentOf, widgetCss } from './widget-styles.js';

/** What the page asked for on the script tag. */
export interface WidgetOptions {
  mode: 'floating' | 'inline';
  lang?: string;
  color?: string;
  position?: string;
  theme?: string;
  title?: string;
  greeting?: string;
}

export interface Contact {
  name?: string;
  email?: string;
  phone?: string;
}

export type WidgetEventName = 'open' | 'close' | 'message';
export type Emit = (name: WidgetEventName, detail: Record<string, unknown>) => void;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()./-]{5,40}$/;
const MAX_QUESTION = 4000;
const CHAT_ICON = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z';
const THUMB = 'M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3a1.5 1.5 0 0 0-.5-1L13.2 1 6.6 7.6A2 2 0 0 0 6 9v10a2 2 0 0 0 2 2h9a2 2 0 0 0 1.8-1.2l3-7.1c.1-.2.2-.5.2-.7v-2z';

/** A decorative SVG icon (its button carries the name); `down` turns it upside down. */
function icon(d: string, turn?: 'down'): SVGSVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  if (turn) svg.classList.add(turn);
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', d);
  svg.append(path);
  return svg;
}

let panels = 0;

/** The chat, drawn in the custom element's shadow root: launcher (floating), panel, messages, forms. */
export class ChatWidget {
  readonly #client: ParleyClient;
  readonly #store: VisitorStore;
  readonly #options: WidgetOptions;
  readonly #config: WidgetConfig;
  readonly #emit: Emit;
  readonly #t: Strings;
  readonly #root: HTMLDivElement;
  readonly #panel: HTMLDivElement;
  readonly #log: HTMLDivElement;
  readonly #input: HTMLTextAreaElement;
  readonly #send: HTMLButtonElement;
  readonly #chips: HTMLDivElement;
  readonly #actions: HTMLDivElement;
  readonly #leadSlot: HTMLDivElement;
  readonly #form: HTMLFormElement;
  readonly #launcher: HTMLButtonElement | null = null;
  readonly #known = new Set<string>();
  /** Agent messages that came live while this page streamed an answer: shown, unless they are that answer, once it ends. */
  #held: LiveMessage[] = [];
  #asking = false;
  #status: ConversationStatus = 'UNRESOLVED';
  #aiEnabled = true;
  #following: AbortController | null = null;
  /** Details given before there was a conversation to store them in; `form`: the visitor typed them. */
  #pendingContact: { contact: Contact; form: boolean } | null = null;

  constructor(shadow: ShadowRoot, client: ParleyClient, store: VisitorStore, config: WidgetConfig, options: WidgetOptions, emit: Emit) {
    this.#client = client;
    this.#store = store;
    this.#config = config;
    this.#options = options;
    this.#emit = emit;
    const settings = config.widget;
    const language = pickLanguage([options.lang, settings.language === 'auto' ? null : settings.language, ...navigator.languages, navigator.language]);
    this.#t = language.strings;
    const theme = options.theme ?? settings.theme;
    const position = options.position ?? settings.position;
    adoptStyles(shadow, widgetCss(accentOf(options.color ?? settings.color)));

    const id = `parley-panel-${++panels}`;
    const title = options.title ?? settings.title ?? config.name;
    this.#root = h('div', {
      class: `root ${options.mode} ${position === 'left' ? 'left' : 'right'} ${['light', 'dark'].includes(theme) ? theme : 'auto'}`,
      dir: language.dir,
      lang: language.lang,
    });
    this.#log = h('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': this.#t.messages });
    this.#input = h('textarea', { 'aria-label': this.#t.placeholder, placeholder: this.#t.placeholder, maxlength: String(MAX_QUESTION), rows: '1' });
    this.#send = h('button', { type: 'submit', class: 'send' }, this.#t.send);
    this.#form = h('form', { class: 'ask' }, this.#input, this.#send);
    this.#chips = h('div', { class: 'chips', role: 'group', 'aria-label': this.#t.suggestions });
    this.#actions = h('div', { class: 'actions' });
    this.#leadSlot = h('div');
    const avatar = safeHref(settings.avatarUrl ?? config.iconUrl ?? '');
    // A <header> here would be a second banner landmark on the host page, which has its own.
    const header = h(
      'div',
      { class: 'head' },
      avatar && avatar.startsWith('http') ? h('img', { src: avatar, alt: '' }) : null,
      h('h2', { id: `${id}-title` }, title),
      this.#button('icon', this.#t.newConversation, () => this.newConversation(), '+'),
      options.mode === 'floating' ? this.#button('icon', this.#t.close, () => this.close(), '✕') : null,
    );
    this.#panel = h(
      'div',
      { class: 'panel', id, role: options.mode === 'floating' ? 'dialog' : 'region', 'aria-labelledby': `${id}-title` },
      header,
      this.#log,
      this.#chips,
      this.#actions,
      this.#leadSlot,
      this.#form,
      settings.hideBranding ? null : h('div', { class: 'brand' }, this.#t.poweredBy),
    );
    if (options.mode === 'floating') {
      this.#panel.hidden = true;
      this.#launcher = h('button', { type: 'button', class: 'launcher', 'aria-label': this.#t.open, 'aria-expanded': 'false', 'aria-controls': id }, icon(CHAT_ICON));
      this.#launcher.addEventListener('click', () => this.toggle());
      this.#root.append(this.#launcher);
      // Escape from anywhere in the widget (a field, a link, the bubble itself) closes an open panel.
      this.#root.addEventListener('keydown', (event) => {
        if (event.key === 'Escape' && !event.isComposing && this.isOpen) {
          event.stopPropagation();
          this.close();
        }
      });
    }
    this.#root.append(this.#panel);
    shadow.append(this.#root);

    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.ask(this.#input.value);
    });
    this.#input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        void this.ask(this.#input.value);
      }
    });
    void this.#restore();
  }

  get isOpen(): boolean {
    return !this.#panel.hidden;
  }

  open(): void {
    if (this.#launcher === null || this.isOpen) return;
    this.#panel.hidden = false;
    this.#launcher.setAttribute('aria-expanded', 'true');
    // Not "close": that is the panel's own button; two buttons of one name would leave a listener guessing.
    this.#launcher.setAttribute('aria-label', this.#t.hide);
    (this.#leadSlot.querySelector('input') ?? this.#input).focus();
    this.#scroll();
    this.#emit('open', {});
  }

  close(): void {
    if (this.#launcher === null || !this.isOpen) return;
    this.#panel.hidden = true;
    this.#launcher.setAttribute('aria-expanded', 'false');
    this.#launcher.setAttribute('aria-label', this.#t.open);
    this.#launcher.focus();
    this.#emit('close', {});
  }

  toggle(): void {
    if (this.isOpen) this.close();
    else this.open();
  }

  /** Forgets the conversation (the visitor stays the same) and starts over with the greeting. */
  newConversation(): void {
    this.#following?.abort();
    this.#following = null;
    this.#store.write({ conversationId: undefined, lastEventId: undefined });
    this.#status = 'UNRESOLVED';
    this.#aiEnabled = true;
    this.#known.clear();
    this.#held = [];
    this.#log.replaceChildren();
    this.#leadSlot.replaceChildren();
    this.#greet();
    this.#input.focus();
  }

  /** The visitor as the page knows them: sent as the conversation's contact, now or after the first answer. */
  identify(contact: Contact): void {
    this.#leadSlot.replaceChildren();
    void this.#giveContact(contact, false);
  }

  async ask(text: string): Promise<void> {
    const query = text.trim();
    if (!query || this.#asking || this.#leadBlocks()) return;
    this.#asking = true;
    this.#send.disabled = true;
    this.#input.value = '';
    this.#chips.replaceChildren();
    this.#message('mine', query);
    const state = this.#store.read();
    const answer = this.#message('agent', '', { busy: true });
    answer.body.append(h('span', { class: 'who' }, this.#t.thinking));
    let streamed = '';
    try {
      const end = await this.#client.ask(query, state.visitorToken ?? null, state.conversationId ?? null, (delta) => {
        streamed += delta;
        answer.body.replaceChildren(renderMarkdown(streamed));
        this.#scroll();
      });
      const fresh = end.conversationId !== state.conversationId;
      this.#store.write({ visitorToken: end.visitorToken, conversationId: end.conversationId, visitorId: end.visitorId, ...(fresh ? { lastEventId: undefined } : {}) });
      this.#known.add(end.messageId);
      // No answer: a person answers instead (the conversation's notices, read back or live, say so).
      if (end.answer === undefined) {
        answer.element.remove();
      } else {
        answer.element.removeAttribute('aria-busy');
        answer.body.replaceChildren(renderMarkdown(end.answer));
        this.#decorate(answer.element, end.messageId, (end.sources ?? []).map((s) => ({ name: s.datasource_name, url: s.source_url })), null);
        this.#emit('message', { id: end.messageId, from: 'agent', text: end.answer });
      }
      this.#follow();
      const pending = this.#pendingContact;
      this.#pendingContact = null;
      if (pending) await this.#deliverContact(end.visitorToken, pending.contact, pending.form);
      this.#offerAfterAnswer();
    } catch (error) {
      answer.element.remove();
      this.#system(this.#explain(error), true);
      if (!this.#input.value) this.#input.value = query;
    } finally {
      this.#asking = false;
      for (const message of this.#held.splice(0)) this.#live(message);
      this.#send.disabled = false;
      this.#actionsUpdate();
      this.#scroll();
    }
  }

  async #restore(): Promise<void> {
    const state = this.#store.read();
    this.#greet();
    if (!state.visitorToken || !state.conversationId) return;
    try {
      const transcript = await this.#client.transcript(state.visitorToken);
      if (transcript.conversationId !== state.conversationId) return;
      this.#status = transcript.status;
      this.#aiEnabled = transcript.isAiEnabled;
      if (transcript.messages.length > 0) this.#chips.replaceChildren();
      for (const message of transcript.messages) this.#show(message);
      this.#follow();
    } catch {
      // A conversation that cannot be read back (removed, token refused) is left: the next question starts another.
      this.#store.write({ conversationId: undefined, lastEventId: undefined });
    }
    this.#actionsUpdate();
    this.#scroll();
  }

  #greet(): void {
    const settings = this.#config.widget;
    const greeting = this.#options.greeting ?? settings.greeting;
    for (const text of [greeting, ...settings.initialMessages]) if (text.trim()) this.#message('agent', text);
    this.#chips.replaceChildren(
      ...settings.suggestedQuestions.map((question) => this.#button('chip', question, () => void this.ask(question))),
    );
    if (settings.leadForm.mode === 'before-first-question' && !this.#store.read().leadDone) this.#leadForm(this.#t.leadTitle);
    this.#actionsUpdate();
  }

  /**
   * Follows the conversation live without a gap. The stream resumes after the last event this visitor
   * saw, kept in storage, so a reload gets what arrived while the page was away (its backlog). With no
   * event to resume from (the first answer just ended, or the server no longer knows that event), the
   * transcript is read again once the stream is open (`ready`): anything earlier is in it, anything later
   * comes live. Either way a message may arrive twice; it is shown once, by its id.
   */
  #follow(): void {
    const token = this.#conversationToken();
    if (this.#following || !token) return;
    const following = new AbortController();
    this.#following = following;
    void this.#client.follow(
      token,
      this.#store.read().lastEventId,
      (event) => {
        if (following.signal.aborted) return;
        if (event.id) this.#store.write({ lastEventId: event.id });
        if (event.kind === 'ready') return event.resumed ? undefined : void this.#catchUp(token, following.signal);
        if (event.kind === 'status') return this.#statusChanged(event.status, event.isAiEnabled);
        this.#live(event.message);
      },
      following.signal,
    );
  }

  async #catchUp(token: string, signal: AbortSignal): Promise<void> {
    try {
      const transcript = await this.#client.transcript(token);
      if (signal.aborted) return;
      for (const message of transcript.messages) this.#live(message);
      this.#statusChanged(transcript.status, transcript.isAiEnabled);
    } catch {
      // The live stream goes on; a message it missed shows after the next reload.
    }
  }

  /** A message from the live stream or a catch-up: the visitor's own and those shown already are skipped. */
  #live(message: LiveMessage): void {
    if (this.#known.has(message.id) || message.sender?.mine || message.sender?.type === 'visitor') return;
    // The answer this page is streaming can come live before its last frame names it: agent messages wait for it.
    if (message.from === 'agent' && this.#asking) {
      this.#held.push(message);
      return;
    }
    this.#show(message);
    this.#emit('message', { id: message.id, from: message.from, text: message.text, sender: message.sender });
  }

  /** Draws a stored message (read back or live) once. */
  #show(message: LiveMessage): void {
    this.#known.add(message.id);
    if (message.from === 'system' || message.sender === null) return this.#system(noticeLine(this.#t, message));
    if (message.sender.type === 'visitor') return void this.#message('mine', message.text);
    const agent = message.sender.type === 'agent';
    const shown = this.#message(agent ? 'agent' : 'person', message.text, { name: message.sender.name });
    if (agent) this.#decorate(shown.element, message.id, message.sources ?? [], message.eval ?? null);
  }

  #statusChanged(status: ConversationStatus, aiEnabled: boolean | undefined): void {
    if (aiEnabled !== undefined) this.#aiEnabled = aiEnabled;
    if (status === 'RESOLVED' && this.#status !== 'RESOLVED') this.#system(this.#t.resolved);
    this.#status = status;
    this.#actionsUpdate();
    this.#scroll();
  }

  #actionsUpdate(): void {
    const offer = this.#config.widget.humanHandoff && this.#conversationToken() !== null && this.#aiEnabled && this.#status !== 'HUMAN_REQUESTED';
    if (!offer) return this.#actions.replaceChildren();
    if (this.#actions.childElementCount > 0) return;
    this.#actions.append(
      this.#button('link', this.#t.talkToPerson, async () => {
        const token = this.#conversationToken();
        if (!token) return;
        try {
          const transcript = await this.#client.setStatus(token, 'HUMAN_REQUESTED');
          this.#status = transcript.status;
          // The notice the request left (what happens next) shows now; the live stream brings it once more, skipped.
          for (const message of transcript.messages) this.#live(message);
        } catch (error) {
          this.#system(this.#explain(error), true);
        }
        this.#actionsUpdate();
        this.#input.focus();
      }),
    );
  }

  #offerAfterAnswer(): void {
    const lead = this.#config.widget.leadForm;
    if (lead.mode === 'after-first-answer' && !this.#store.read().leadDone && this.#leadSlot.childElementCount === 0) {
      this.#leadForm(this.#t.leadTitleAfter);
    }
  }

  /** Asking waits for a lead form shown before the first question when one of its fields is required. */
  #leadBlocks(): boolean {
    const field = this.#leadSlot.querySelector('input');
    if (field === null || this.#config.widget.leadForm.mode !== 'before-first-question') return false;
    field.focus();
    return true;
  }

  #leadForm(title: string): void {
    const rules = this.#config.widget.leadForm;
    const fields: { key: keyof Contact; label: string; type: string; autocomplete: string; rule: string; check?: RegExp; bad?: string }[] = [
      { key: 'name', label: this.#t.name, type: 'text', autocomplete: 'name', rule: rules.name },
      { key: 'email', label: this.#t.email, type: 'email', autocomplete: 'email', rule: rules.email, check: EMAIL, bad: this.#t.badEmail },
      { key: 'phone', label: this.#t.phone, type: 'tel', autocomplete: 'tel', rule: rules.phone, check: PHONE, bad: this.#t.badPhone },
    ];
    const shown = fields.filter((field) => field.rule !== 'off');
    if (shown.length === 0) return;
    const form = h('form', { class: 'lead', novalidate: true }, h('p', {}, title));
    const inputs = shown.map((field, index) => {
      const errorId = `parley-lead-${panels}-${index}`;
      const input = h('input', { type: field.type, name: field.key, autocomplete: field.autocomplete, 'aria-describedby': errorId });
      if (field.rule === 'required') input.setAttribute('aria-required', 'true');
      const error = h('span', { class: 'bad', id: errorId, 'aria-live': 'polite' });
      // The error sits beside the label, not in it: it describes the field without renaming it.
      form.append(h('label', {}, `${field.label}${field.rule === 'optional' ? ` ${this.#t.optional}` : ''}`, input), error);
      return { field, input, error };
    });
    const submit = h('button', { type: 'submit', class: 'send' }, this.#t.submit);
    const row = h('div', { class: 'row' }, submit);
    if (shown.every((field) => field.rule !== 'required')) {
      row.append(
        this.#button('link', this.#t.skip, () => {
          this.#store.write({ leadDone: true });
          this.#leadSlot.replaceChildren();
          this.#input.focus();
        }),
      );
    }
    form.append(row);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      let firstBad: HTMLInputElement | null = null;
      const contact: Contact = {};
      for (const { field, input, error } of inputs) {
        const value = input.value.trim();
        const problem = !value ? (field.rule === 'required' ? this.#t.required : '') : field.check && !field.check.test(value) ? (field.bad ?? '') : '';
        error.textContent = problem;
        input.setAttribute('aria-invalid', problem ? 'true' : 'false');
        if (problem) firstBad ??= input;
        else if (value) contact[field.key] = value;
      }
      if (firstBad) return firstBad.focus();
      submit.disabled = true;
      void this.#giveContact(contact, true).finally(() => (submit.disabled = false));
    });
    this.#leadSlot.replaceChildren(form);
  }

  /** Stores the details now, or with the first question when there is no conversation yet. */
  async #giveContact(contact: Contact, form: boolean): Promise<void> {
    const token = this.#conversationToken();
    if (token) return this.#deliverContact(token, contact, form);
    this.#pendingContact = { contact, form };
    this.#leadSlot.replaceChildren();
    this.#input.focus();
  }

  /**
   * Thanks the visitor only once the server has stored the details; when it could not, says so and,
   * for details the visitor typed, keeps (or brings back) the form to send them again.
   */
  async #deliverContact(token: string, contact: Contact, form: boolean): Promise<void> {
    if (await this.#sendContact(token, contact)) {
      this.#store.write({ leadDone: true });
      this.#leadSlot.replaceChildren();
      if (form) {
        this.#system(this.#t.thanks);
        this.#input.focus();
      }
      return;
    }
    this.#system(this.#t.leadFailed, true);
    if (form && this.#leadSlot.childElementCount === 0) this.#leadForm(this.#t.leadTitleAfter);
  }

  /** True once stored; a lost connection or a busy server is tried again twice, a refusal is not. */
  async #sendContact(token: string, contact: Contact): Promise<boolean> {
    const body = {
      ...(contact.name ? { firstName: contact.name } : {}),
      ...(contact.email ? { email: contact.email } : {}),
      ...(contact.phone ? { phoneNumber: contact.phone } : {}),
    };
    if (Object.keys(body).length === 0) return true;
    for (const pause of [1_000, 3_000, 0]) {
      try {
        await this.#client.identify(token, body);
        return true;
      } catch (error) {
        const worthRetrying = !(error instanceof CallFailed) || error.status === 0 || error.status === 429 || error.status >= 500;
        if (!worthRetrying || pause === 0) return false;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
    return false;
  }

  #conversationToken(): string | null {
    const state = this.#store.read();
    return state.conversationId && state.visitorToken ? state.visitorToken : null;
  }

  /** A message line; `agent` text is markdown, everything else plain text. */
  #message(kind: 'mine' | 'agent' | 'person', text: string, { name, busy }: { name?: string | null; busy?: boolean } = {}) {
    // Each message takes the direction of its own words: an English greeting in an Arabic panel reads left to right.
    const body = h('div', { dir: 'auto' });
    if (kind === 'agent') body.append(renderMarkdown(text));
    else body.textContent = text;
    const who = kind === 'mine' ? this.#t.you : (name ?? (kind === 'agent' ? this.#config.name : ''));
    const element = h(
      'div',
      { class: `msg ${kind === 'mine' ? 'mine' : ''}`, 'aria-busy': busy ? 'true' : undefined },
      kind === 'person' && name ? h('span', { class: 'who' }, name) : h('span', { class: 'sr' }, `${who}: `),
      body,
    );
    this.#log.append(element);
    this.#scroll();
    return { element, body };
  }

  /** A notice line, as text; one that comes while an answer is being written goes before that answer, as it was stored. */
  #system(text: string | (string | Node)[], error = false): void {
    const line = h('div', { class: error ? 'system error' : 'system', role: error ? 'alert' : undefined }, ...(typeof text === 'string' ? [text] : text));
    const writing = error ? null : this.#log.querySelector('[aria-busy="true"]');
    if (writing) writing.before(line);
    else this.#log.append(line);
    this.#scroll();
  }

  /** Sources as links (when they have a web address) and the rating buttons under an answer. */
  #decorate(element: HTMLElement, messageId: string, sources: Source[], rating: Rating): void {
    if (sources.length > 0) {
      const list = h('ol');
      for (const source of sources) {
        const href = source.url ? safeHref(source.url) : null;
        list.append(h('li', {}, href ? link(href, source.name) : source.name));
      }
      element.append(h('div', { class: 'sources' }, this.#t.sources, list));
    }
    if (!this.#config.widget.ratings) return;
    let current = rating;
    // Drawn, not emoji: a system without an emoji font would show empty boxes.
    const good = this.#button('', this.#t.helpful, () => void choose('GOOD'), icon(THUMB));
    const bad = this.#button('', this.#t.notHelpful, () => void choose('BAD'), icon(THUMB, 'down'));
    const show = () => {
      good.setAttribute('aria-pressed', String(current === 'GOOD'));
      bad.setAttribute('aria-pressed', String(current === 'BAD'));
    };
    const choose = async (value: 'GOOD' | 'BAD') => {
      const token = this.#conversationToken();
      if (!token) return;
      const next = current === value ? null : value;
      try {
        await this.#client.rate(token, messageId, next);
        current = next;
        show();
      } catch (error) {
        this.#system(this.#explain(error), true);
      }
    };
    show();
    element.append(h('div', { class: 'rate' }, good, bad));
  }

  /** A button; with `content` other than its label (a sign, an icon) the label is its name and tooltip. */
  #button(className: string, label: string, onClick: () => void, content: string | Node = label): HTMLButtonElement {
    const button = h('button', { type: 'button', class: className || undefined }, content);
    if (content !== label) {
      button.setAttribute('aria-label', label);
      button.title = label;
    }
    button.addEventListener('click', onClick);
    return button;
  }

  #explain(error: unknown): string {
    if (error instanceof CallFailed) {
      if (error.status === 429) return this.#t.rateLimited;
      if (error.status === 400 || error.status === 413) return this.#t.tooLong;
      if (error.status === 0) return this.#t.offline;
      return this.#t.failed;
    }
    return this.#t.offline;
  }

  #scroll(): void {
    this.#log.scrollTop = this.#log.scrollHeight;
  }
}

function adoptStyles(shadow: ShadowRoot, css: string): void {
  if ('adoptedStyleSheets' in shadow && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    shadow.adoptedStyleSheets = [sheet];
  } else {
    shadow.append(h('style', {}, css));
  }
}
