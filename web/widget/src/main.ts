import type { VisitorContextInput } from '../../../src/contract/answers.js';
import type { Contact } from './chat-session.js';
import { ChatWidget, type WidgetEventName, type WidgetOptions } from './chat-widget.js';
import { ParleyClient, type WidgetConfig } from './parley-client.js';
import { VisitorStore } from './visitor-store.js';

type Listener = (detail: Record<string, unknown>) => void;

/** `window.Parley`: the page's handle on its widgets (usually one; `widget(agentId)` picks one of several). */
interface ParleyApi {
  open(): void;
  close(): void;
  toggle(): void;
  newConversation(): void;
  identify(contact: Contact): void;
  on(event: WidgetEventName, listener: Listener): void;
  off(event: WidgetEventName, listener: Listener): void;
  widget(agentId: string): Omit<ParleyApi, 'widget'> | undefined;
}

declare global {
  interface Window {
    Parley?: ParleyApi;
  }
}

const TAG = 'parley-chat';
const widgets = new Map<string, Promise<ChatWidget | null>>();
const listeners = new Map<WidgetEventName, Set<Listener>>();

/** Events reach `Parley.on` listeners and the window (`parley:open`, …), each naming its agent. */
function emitFor(agentId: string) {
  return (name: WidgetEventName, detail: Record<string, unknown>) => {
    const full = { agentId, ...detail };
    for (const listener of listeners.get(name) ?? []) listener(full);
    window.dispatchEvent(new CustomEvent(`parley:${name}`, { detail: full }));
  };
}

function handle(pick: () => Promise<ChatWidget | null>[]): Omit<ParleyApi, 'widget'> {
  const each = (act: (widget: ChatWidget) => void) => () => {
    for (const widget of pick()) void widget.then((ready) => ready && act(ready));
  };
  return {
    open: each((w) => w.open()),
    close: each((w) => w.close()),
    toggle: each((w) => w.toggle()),
    newConversation: each((w) => w.newConversation()),
    identify: (contact) => each((w) => w.identify(contact))(),
    on: (event, listener) => void (listeners.get(event) ?? listeners.set(event, new Set()).get(event))?.add(listener),
    off: (event, listener) => void listeners.get(event)?.delete(listener),
  };
}

/** `true`/`on`/`yes`/`1` (or the bare attribute) and `false`/`off`/`no`/`0`, in any case; anything else is no override. */
function flag(value: string | undefined): boolean | undefined {
  const word = value?.trim().toLowerCase();
  if (word === undefined) return undefined;
  if (['', 'true', 'on', 'yes', '1'].includes(word)) return true;
  if (['false', 'off', 'no', '0'].includes(word)) return false;
  return undefined;
}

const LEAD_MODES: readonly WidgetConfig['widget']['leadForm']['mode'][] = ['off', 'before-first-question', 'after-first-answer'];

/** The agent's settings with the script tag's overrides of its switches (`data-human-handoff`, `data-ratings`, `data-lead-form`). */
function overridden(config: WidgetConfig, data: DOMStringMap): WidgetConfig {
  const settings = config.widget;
  const mode = data.leadForm?.trim().toLowerCase();
  const leadMode = flag(mode) === false ? 'off' : LEAD_MODES.find((known) => known === mode);
  return {
    ...config,
    widget: {
      ...settings,
      humanHandoff: flag(data.humanHandoff) ?? settings.humanHandoff,
      ratings: flag(data.ratings) ?? settings.ratings,
      leadForm: { ...settings.leadForm, mode: leadMode ?? settings.leadForm.mode },
    },
  };
}

/** The page's URL, where the visitor came from, their language and browser, cut to what the server keeps. */
function pageContext(): VisitorContextInput {
  return {
    pageUrl: location.href.slice(0, 2_000),
    ...(document.referrer === '' ? {} : { referrer: document.referrer.slice(0, 2_000) }),
    ...(navigator.language ? { language: navigator.language.slice(0, 35) } : {}),
    userAgent: navigator.userAgent.slice(0, 512),
  };
}

async function mount(script: HTMLScriptElement, agentId: string): Promise<ChatWidget | null> {
  const data = script.dataset;
  const mode: WidgetOptions['mode'] = data.mode === 'inline' ? 'inline' : 'floating';
  const target = mode === 'inline' && data.target ? document.querySelector(data.target) : document.body;
  if (!target) {
    console.warn(`Parley widget: no element matches data-target "${data.target ?? ''}"`);
    return null;
  }
  // The API lives where the script came from, whatever page includes it.
  const client = new ParleyClient(new URL('.', script.src), agentId, pageContext);
  const config = overridden(await client.config(), data);
  if (!customElements.get(TAG)) customElements.define(TAG, class extends HTMLElement {});
  const host = document.createElement(TAG);
  host.dataset.agentId = agentId;
  target.append(host);
  const shadow = host.attachShadow({ mode: 'open' });
  return new ChatWidget(
    shadow,
    client,
    new VisitorStore(agentId),
    config,
    {
      mode,
      lang: data.lang,
      color: data.color,
      position: data.position,
      theme: data.theme,
      title: data.title,
      greeting: data.greeting,
    },
    emitFor(agentId),
  );
}

function boot(script: HTMLScriptElement | null): void {
  const agentId = script?.dataset.agentId;
  if (!script?.src || !agentId) {
    console.warn('Parley widget: the script tag needs data-agent-id');
    return;
  }
  if (widgets.has(agentId)) return;
  const ready = new Promise<void>((resolve) => {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => resolve(), { once: true });
    else resolve();
  });
  widgets.set(
    agentId,
    ready
      .then(() => mount(script, agentId))
      .catch((error: unknown) => {
        console.warn('Parley widget: could not start', error);
        return null;
      }),
  );
  window.Parley ??= {
    ...handle(() => [...widgets.values()]),
    widget: (id) => (widgets.has(id) ? handle(() => [widgets.get(id) ?? Promise.resolve(null)]) : undefined),
  };
}

boot(document.currentScript instanceof HTMLScriptElement ? document.currentScript : null);
