import type { VisitorContext } from '../store/store.js';
import { VISITOR_CONTEXT_LIMITS, type VisitorContextInput } from '../contract/answers.js';

/** Control and bidi-override characters: the context is shown to members as text, on one line. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

const text = (value: string | undefined, max: number): string | undefined => {
  const clean = value?.replace(UNPRINTABLE, '').trim().slice(0, max);
  return clean === undefined || clean === '' ? undefined : clean;
};

/** An http(s) URL as text, cut to the cap; anything else (javascript:, data:, not a URL) is dropped. */
const webUrl = (value: string | undefined): string | undefined => {
  const clean = text(value, VISITOR_CONTEXT_LIMITS.url);
  if (clean === undefined || !URL.canParse(clean)) return undefined;
  const { protocol } = new URL(clean);
  return protocol === 'http:' || protocol === 'https:' ? clean : undefined;
};

/**
 * What the widget told of the visitor's page, as kept: text only, each value cut to its cap, URLs only when
 * http(s), the language only when it reads like one (en, en-GB); undefined when nothing is left.
 */
export function visitorContextOf(input: VisitorContextInput | undefined): VisitorContext | undefined {
  if (input === undefined) return undefined;
  const language = text(input.language, VISITOR_CONTEXT_LIMITS.language);
  const context: VisitorContext = {
    pageUrl: webUrl(input.pageUrl),
    referrer: webUrl(input.referrer),
    language: language !== undefined && LANGUAGE.test(language) ? language : undefined,
    userAgent: text(input.userAgent, VISITOR_CONTEXT_LIMITS.userAgent),
  };
  const kept = Object.fromEntries(Object.entries(context).filter(([, value]) => value !== undefined)) as VisitorContext;
  return Object.keys(kept).length === 0 ? undefined : kept;
}
