import { ar } from './ar.js';
import { en, type Strings } from './en.js';
import { fr } from './fr.js';

export type { Strings };

const CATALOGUE: Record<string, Strings> = { en, fr, ar };
const RIGHT_TO_LEFT = new Set(['ar']);

/**
 * The first shipped language of the candidates (a `data-lang`, the agent's setting, the browser's
 * languages), by its primary subtag: `fr-CA` is French. English when none is shipped.
 */
export function pickLanguage(candidates: readonly (string | null | undefined)[]): { lang: string; dir: 'ltr' | 'rtl'; strings: Strings } {
  for (const candidate of candidates) {
    const lang = candidate?.toLowerCase().split(/[-_]/)[0];
    const strings = lang === undefined ? undefined : CATALOGUE[lang];
    if (lang !== undefined && strings !== undefined) return { lang, dir: RIGHT_TO_LEFT.has(lang) ? 'rtl' : 'ltr', strings };
  }
  return { lang: 'en', dir: 'ltr', strings: en };
}
