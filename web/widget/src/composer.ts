import { h } from './element.js';
import type { Strings } from './strings/index.js';

const MAX_QUESTION = 4000;

/** The question field and its send button: Enter sends, Shift+Enter starts a new line. */
export class Composer {
  readonly input: HTMLTextAreaElement;
  readonly element: HTMLFormElement;
  readonly #send: HTMLButtonElement;

  constructor(t: Strings, ask: (text: string) => void) {
    this.input = h('textarea', { 'aria-label': t.placeholder, placeholder: t.placeholder, maxlength: String(MAX_QUESTION), rows: '1' });
    this.#send = h('button', { type: 'submit', class: 'send' }, t.send);
    this.element = h('form', { class: 'ask' }, this.input, this.#send);
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      ask(this.input.value);
    });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        ask(this.input.value);
      }
    });
  }

  /** While a question is answered the button rests; the field stays open for the next one. */
  setBusy(busy: boolean): void {
    this.#send.disabled = busy;
  }
}
