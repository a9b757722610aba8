import { h } from './element.js';
import { link, renderMarkdown, safeHref } from './markdown.js';
import { noticeLine } from './notice-line.js';
import type { LiveMessage, Rating, Source } from './parley-client.js';
import { ratingButtons } from './ratings.js';
import type { Strings } from './strings/index.js';

/** Whose words a bubble holds: the visitor's, the agent's (markdown) or a person's who answers. */
export type MessageKind = 'mine' | 'agent' | 'person';

/** A bubble in the log, and the part of it holding the words (an answer being written replaces them). */
export interface Bubble {
  element: HTMLDivElement;
  body: HTMLDivElement;
}

/** Sends an answer's rating; true once the server has it. */
export type Rate = (messageId: string, rating: Rating) => Promise<boolean>;

/** The conversation's log: bubbles and notice lines, kept scrolled to the newest. */
export class MessageList {
  readonly element: HTMLDivElement;
  readonly #t: Strings;
  readonly #agentName: string;
  /** How answers are rated; null when the agent shows no rating buttons. */
  readonly #rate: Rate | null;

  constructor(t: Strings, agentName: string, rate: Rate | null) {
    this.#t = t;
    this.#agentName = agentName;
    this.#rate = rate;
    this.element = h('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': t.messages });
  }

  /** A message bubble; `agent` text is markdown, everything else plain text. */
  message(kind: MessageKind, text: string, { name, busy }: { name?: string | null; busy?: boolean } = {}): Bubble {
    // Each message takes the direction of its own words: an English greeting in an Arabic panel reads left to right.
    const body = h('div', { dir: 'auto' });
    if (kind === 'agent') body.append(renderMarkdown(text));
    else body.textContent = text;
    const who = kind === 'mine' ? this.#t.you : (name ?? (kind === 'agent' ? this.#agentName : ''));
    const element = h(
      'div',
      { class: `msg ${kind === 'mine' ? 'mine' : ''}`, 'aria-busy': busy ? 'true' : undefined },
      kind === 'person' && name ? h('span', { class: 'who' }, name) : h('span', { class: 'sr' }, `${who}: `),
      body,
    );
    this.element.append(element);
    this.scroll();
    return { element, body };
  }

  /** A notice line, as text; one that comes while an answer is being written goes before that answer, as it was stored. */
  notice(text: string | (string | Node)[], error = false): void {
    const line = h(
      'div',
      { class: error ? 'system error' : 'system', role: error ? 'alert' : undefined },
      ...(typeof text === 'string' ? [text] : text),
    );
    const writing = error ? null : this.element.querySelector('[aria-busy="true"]');
    if (writing) writing.before(line);
    else this.element.append(line);
    this.scroll();
  }

  /** A message the server stored, drawn by who wrote it: a notice as a line, an answer with what goes under it. */
  stored(message: LiveMessage): void {
    if (message.from === 'system' || message.sender === null) return this.notice(noticeLine(this.#t, message));
    if (message.sender.type === 'visitor') return void this.message('mine', message.text);
    const agent = message.sender.type === 'agent';
    const shown = this.message(agent ? 'agent' : 'person', message.text, { name: message.sender.name });
    if (agent) this.answered(shown.element, message.id, message.sources ?? [], message.eval ?? null);
  }

  /** Under an answer: its sources, as links when they have a web address, and the rating buttons. */
  answered(bubble: HTMLElement, messageId: string, sources: Source[], rating: Rating): void {
    if (sources.length > 0) {
      const list = h('ol');
      for (const source of sources) {
        const href = source.url ? safeHref(source.url) : null;
        list.append(h('li', {}, href ? link(href, source.name) : source.name));
      }
      bubble.append(h('div', { class: 'sources' }, this.#t.sources, list));
    }
    const rate = this.#rate;
    if (rate) bubble.append(ratingButtons(this.#t, rating, (next) => rate(messageId, next)));
  }

  clear(): void {
    this.element.replaceChildren();
  }

  scroll(): void {
    this.element.scrollTop = this.element.scrollHeight;
  }
}
