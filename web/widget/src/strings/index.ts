import { ar } from './ar.js';
import { en, type Strings } from './en.js';
import { fr } from './fr.js';

export type { Strings };

const CATALOGUE: Record<string, Strings> = { en, fr, ar };
const RIGHT_TO_LEFT = new Set(['ar']);

/** A shipped language: its tag, its direction and the widget's words in it. */
export interface Language {
  lang: string;
  dir: 'ltr' | 'rtl';
  strings: Strings;
}

/**
 * The first shipped language of the candidates (a `data-lang`, the agent's setting, the browser's
 * languages), by its primary subtag: `fr-CA` is French. English when none is shipped.
 */
function pickLanguage(candidates: readonly (string | null | undefined)[]): Language {
  for (const candidate of candidates) {
    const lang = candidate?.toLowerCase().split(/[-_]/)[0];
    const strings = lang === undefined ? undefined : CATALOGUE[lang];
    if (lang !== undefined && strings !== undefined) return { lang, dir: RIGHT_TO_LEFT.has(lang) ? 'rtl' : 'ltr', strings };
  }
  return { lang: 'en', dir: 'ltr', strings: en };
}

/**
 * The language a widget speaks: the page's `data-lang`, then the agent's setting (unless `auto`), then the
 * browser's. The dashboard's preview asks the same, so it shows what a visitor of that browser would see.
 */
export function widgetLanguage(setting: string, pageChoice?: string): Language {
  return pickLanguage([pageChoice, setting === 'auto' ? null : setting, ...navigator.languages, navigator.language]);
}
