/** How an agent's chat widget looks and behaves; `data-*` attributes on the script tag override them per page. */

import type { LEAD_FIELD_RULES, LEAD_FORM_MODES, WIDGET_LANGUAGES } from '../contract/widget-settings.js';

export type LeadFieldRule = (typeof LEAD_FIELD_RULES)[number];

export interface WidgetSettings {
  /** The accent colour, `#rrggbb`. */
  color: string;
  position: 'left' | 'right';
  theme: 'light' | 'dark' | 'auto';
  /** The panel's title; null: the agent's name. */
  title: string | null;
  /** null: the agent's icon. */
  avatarUrl: string | null;
  greeting: string;
  /** Shown as the agent's first messages, before the visitor writes. */
  initialMessages: string[];
  /** Offered as buttons until the visitor asks something. */
  suggestedQuestions: string[];
  /** `auto`: the browser's language, where shipped (en, fr, ar). */
  language: (typeof WIDGET_LANGUAGES)[number];
  /** A "talk to a person" button. */
  humanHandoff: boolean;
  /** Good/bad buttons under answers. */
  ratings: boolean;
  leadForm: {
    mode: (typeof LEAD_FORM_MODES)[number];
    name: LeadFieldRule;
    email: LeadFieldRule;
    phone: LeadFieldRule;
  };
  hideBranding: boolean;
}

/** A change to the settings: any field, the lead form's fields one by one too. */
export type WidgetSettingsPatch = Partial<Omit<WidgetSettings, 'leadForm'>> & { leadForm?: Partial<WidgetSettings['leadForm']> };

export const WIDGET_DEFAULTS: WidgetSettings = Object.freeze({
  color: '#2563eb',
  position: 'right',
  theme: 'auto',
  title: null,
  avatarUrl: null,
  greeting: 'Hi! How can I help?',
  initialMessages: [],
  suggestedQuestions: [],
  language: 'auto',
  humanHandoff: true,
  ratings: true,
  leadForm: Object.freeze({ mode: 'off', name: 'optional', email: 'required', phone: 'off' }),
  hideBranding: false,
}) as WidgetSettings;

/** The stored changes over the defaults: what the widget uses. */
export function widgetSettingsOf(stored: WidgetSettingsPatch): WidgetSettings {
  return { ...WIDGET_DEFAULTS, ...stored, leadForm: { ...WIDGET_DEFAULTS.leadForm, ...stored.leadForm } };
}

/** `patch` applied to what is stored: the lead form field by field, everything else replaced. */
export function mergeWidgetSettings(stored: WidgetSettingsPatch, patch: WidgetSettingsPatch): WidgetSettingsPatch {
  const leadForm = patch.leadForm === undefined ? stored.leadForm : { ...stored.leadForm, ...patch.leadForm };
  return { ...stored, ...patch, ...(leadForm === undefined ? {} : { leadForm }) };
}
