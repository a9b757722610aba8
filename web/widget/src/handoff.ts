import type { ChatSession } from './chat-session.js';
import { button } from './controls.js';
import { h } from './element.js';

interface HandoffProps {
  label: string;
  /** The agent's settings offer a person at all. */
  offered: boolean;
  session: ChatSession;
  /** The request was refused or lost: the widget says so. */
  failed(error: unknown): void;
  /** The request is over: the question field takes the focus back. */
  done(): void;
}

/** The "talk to a person" link under the messages: there while a person can be asked for, drawn once. */
export class Handoff {
  readonly element = h('div', { class: 'actions' });
  readonly #props: HandoffProps;

  constructor(props: HandoffProps) {
    this.#props = props;
  }

  update(): void {
    const { label, offered, session } = this.#props;
    if (!offered || !session.personAskable) return this.element.replaceChildren();
    if (this.element.childElementCount === 0) this.element.append(button('link', label, () => void this.#request()));
  }

  async #request(): Promise<void> {
    try {
      await this.#props.session.askForPerson();
    } catch (error) {
      this.#props.failed(error);
    }
    this.update();
    this.#props.done();
  }
}
