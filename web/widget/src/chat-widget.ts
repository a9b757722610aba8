import { accentOf } from './accent.js';
import { ChatSession, type Contact } from './chat-session.js';
import { Composer } from './composer.js';
import { button, icon } from './controls.js';
import { h } from './element.js';
import { explainError } from './explain-error.js';
import { Handoff } from './handoff.js';
import { LeadSlot } from './lead-form.js';
import { renderMarkdown } from './markdown.js';
import { MessageList } from './message-list.js';
import { panelHeader } from './panel-header.js';
import type { LiveMessage, ParleyClient, Rating, WidgetConfig } from './parley-client.js';
import { widgetLanguage, type Strings } from './strings/index.js';
import type { VisitorStore } from './visitor-store.js';
import { widgetCss } from './widget-styles.js';

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

export type WidgetEventName = 'open' | 'close' | 'message';
export type Emit = (name: WidgetEventName, detail: Record<string, unknown>) => void;

const CHAT_ICON = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z';

let panels = 0;

/**
 * The chat, drawn in the custom element's shadow root: launcher (floating), panel, messages, forms. The
 * exchange itself (what was asked, what came live, what was shown) is the session's; this draws it.
 */
export class ChatWidget {
  readonly #session: ChatSession;
  readonly #options: WidgetOptions;
  readonly #config: WidgetConfig;
  readonly #emit: Emit;
  readonly #t: Strings;
  readonly #panel: HTMLDivElement;
  readonly #log: MessageList;
  readonly #composer: Composer;
  readonly #chips: HTMLDivElement;
  readonly #handoff: Handoff;
  readonly #lead: LeadSlot;
  readonly #launcher: HTMLButtonElement | null = null;

  constructor(shadow: ShadowRoot, client: ParleyClient, store: VisitorStore, config: WidgetConfig, options: WidgetOptions, emit: Emit) {
    this.#config = config;
    this.#options = options;
    this.#emit = emit;
    this.#session = new ChatSession(client, store, {
      message: (message, live) => this.#stored(message, live),
      status: (resolved) => this.#statusChanged(resolved),
    });
    const settings = config.widget;
    const language = widgetLanguage(settings.language, options.lang);
    this.#t = language.strings;
    const t = this.#t;
    const theme = options.theme ?? settings.theme;
    const position = options.position ?? settings.position;
    adoptStyles(shadow, widgetCss(accentOf(options.color ?? settings.color)));

    const id = `parley-panel-${++panels}`;
    const root = h('div', {
      class: `root ${options.mode} ${position === 'left' ? 'left' : 'right'} ${['light', 'dark'].includes(theme) ? theme : 'auto'}`,
      dir: language.dir,
      lang: language.lang,
    });
    this.#log = new MessageList(t, config.name, settings.ratings ? (messageId, rating) => this.#rate(messageId, rating) : null);
    this.#composer = new Composer(t, (text) => void this.ask(text));
    this.#chips = h('div', { class: 'chips', role: 'group', 'aria-label': t.suggestions });
    this.#handoff = new Handoff({
      label: t.talkToPerson,
      offered: settings.humanHandoff,
      session: this.#session,
      failed: (error) => this.#alert(error),
      done: () => this.#composer.input.focus(),
    });
    this.#lead = new LeadSlot({
      t,
      rules: settings.leadForm,
      id: `${id}-lead`,
      session: this.#session,
      notice: (text, error) => this.#log.notice(text, error),
      done: () => this.#composer.input.focus(),
    });
    this.#panel = h(
      'div',
      { class: 'panel', id, role: options.mode === 'floating' ? 'dialog' : 'region', 'aria-labelledby': `${id}-title` },
      panelHeader({
        t,
        title: options.title ?? settings.title ?? config.name,
        titleId: `${id}-title`,
        avatarUrl: settings.avatarUrl ?? config.iconUrl ?? '',
        newConversation: () => this.newConversation(),
        close: options.mode === 'floating' ? () => this.close() : null,
      }),
      this.#log.element,
      this.#chips,
      this.#handoff.element,
      this.#lead.element,
      this.#composer.element,
      settings.hideBranding ? null : h('div', { class: 'brand' }, t.poweredBy),
    );
    if (options.mode === 'floating') {
      this.#panel.hidden = true;
      this.#launcher = h(
        'button',
        { type: 'button', class: 'launcher', 'aria-label': t.open, 'aria-expanded': 'false', 'aria-controls': id },
        icon(CHAT_ICON),
      );
      this.#launcher.addEventListener('click', () => this.toggle());
      root.append(this.#launcher);
      // Escape from anywhere in the widget (a field, a link, the bubble itself) closes an open panel.
      root.addEventListener('keydown', (event) => {
        if (event.key === 'Escape' && !event.isComposing && this.isOpen) {
          event.stopPropagation();
          this.close();
        }
      });
    }
    root.append(this.#panel);
    shadow.append(root);

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
    (this.#lead.field ?? this.#composer.input).focus();
    this.#log.scroll();
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
    this.#session.reset();
    this.#log.clear();
    this.#lead.clear();
    this.#greet();
    this.#composer.input.focus();
  }

  /** The visitor as the page knows them: sent as the conversation's contact, now or after the first answer. */
  identify(contact: Contact): void {
    this.#lead.clear();
    void this.#lead.give(contact, false);
  }

  async ask(text: string): Promise<void> {
    const query = text.trim();
    if (!query || this.#session.asking || this.#lead.blocks()) return;
    this.#composer.setBusy(true);
    this.#composer.input.value = '';
    this.#chips.replaceChildren();
    this.#log.message('mine', query);
    const answer = this.#log.message('agent', '', { busy: true });
    answer.body.append(h('span', { class: 'who' }, this.#t.thinking));
    let streamed = '';
    try {
      const end = await this.#session.ask(query, (delta) => {
        streamed += delta;
        answer.body.replaceChildren(renderMarkdown(streamed));
        this.#log.scroll();
      });
      // No answer: a person answers instead (the conversation's notices, read back or live, say so).
      if (end.answer === undefined) {
        answer.element.remove();
      } else {
        answer.element.removeAttribute('aria-busy');
        answer.body.replaceChildren(renderMarkdown(end.answer));
        this.#log.answered(
          answer.element,
          end.messageId,
          (end.sources ?? []).map((s) => ({ name: s.datasource_name, url: s.source_url })),
          null,
        );
        this.#emit('message', { id: end.messageId, from: 'agent', text: end.answer });
      }
      this.#session.follow();
      const pending = this.#session.takeContact();
      if (pending) await this.#lead.deliver(pending.contact, pending.form);
      this.#lead.offerAfter();
    } catch (error) {
      answer.element.remove();
      this.#alert(error);
      if (!this.#composer.input.value) this.#composer.input.value = query;
    } finally {
      this.#session.endAsking();
      this.#composer.setBusy(false);
      this.#handoff.update();
      this.#log.scroll();
    }
  }

  async #restore(): Promise<void> {
    this.#greet();
    await this.#session.restore();
    this.#handoff.update();
    this.#log.scroll();
  }

  #greet(): void {
    const settings = this.#config.widget;
    const greeting = this.#options.greeting ?? settings.greeting;
    for (const text of [greeting, ...settings.initialMessages]) if (text.trim()) this.#log.message('agent', text);
    this.#chips.replaceChildren(...settings.suggestedQuestions.map((question) => button('chip', question, () => void this.ask(question))));
    this.#lead.offerBefore();
    this.#handoff.update();
  }

  /** Draws a stored message the session saw for the first time; one that came live is also told to the page. */
  #stored(message: LiveMessage, live: boolean): void {
    // Suggestions are for a conversation not started yet.
    if (!live) this.#chips.replaceChildren();
    this.#log.stored(message);
    if (live) this.#emit('message', { id: message.id, from: message.from, text: message.text, sender: message.sender });
  }

  /** Rates an answer; a refusal shows as a notice and leaves the buttons as they were. */
  async #rate(messageId: string, rating: Rating): Promise<boolean> {
    try {
      return await this.#session.rate(messageId, rating);
    } catch (error) {
      this.#alert(error);
      return false;
    }
  }

  #statusChanged(resolved: boolean): void {
    if (resolved) this.#log.notice(this.#t.resolved);
    this.#handoff.update();
    this.#log.scroll();
  }

  /** A failed call, told to the visitor as what to do about it. */
  #alert(error: unknown): void {
    this.#log.notice(explainError(this.#t, error), true);
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
