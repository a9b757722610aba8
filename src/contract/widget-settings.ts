import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from './json-schema.js';

/** The chat widget's settings as the API reads and answers them (an agent's `widget`). */

export const WIDGET_LANGUAGES = ['auto', 'en', 'fr', 'ar'] as const;
export const LEAD_FORM_MODES = ['off', 'before-first-question', 'after-first-answer'] as const;
export const LEAD_FIELD_RULES = ['off', 'optional', 'required'] as const;

const ShortText = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description === undefined ? {} : { description }) });
const LeadFieldRule = StringEnum(LEAD_FIELD_RULES);

const fields = {
  color: Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'Accent colour, #rrggbb' }),
  position: StringEnum(['left', 'right'], { description: 'Which corner the bubble sits in' }),
  theme: StringEnum(['light', 'dark', 'auto'], { description: 'auto follows the visitor’s system setting' }),
  title: Nullable(ShortText(80, 'The panel’s title; null: the agent’s name')),
  avatarUrl: Nullable(Type.String({ maxLength: 2000, pattern: '^https?://', description: 'null: the agent’s icon' })),
  greeting: ShortText(500, 'The first line the visitor reads'),
  initialMessages: Type.Array(ShortText(1000), { maxItems: 5, description: 'Shown as the agent’s first messages' }),
  suggestedQuestions: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 6, description: 'Offered until the visitor asks' }),
  language: StringEnum(WIDGET_LANGUAGES, { description: 'auto: the browser’s language where shipped (en, fr, ar)' }),
  humanHandoff: Type.Boolean({ description: 'A “talk to a person” button' }),
  ratings: Type.Boolean({ description: 'Good/bad buttons under answers' }),
  hideBranding: Type.Boolean(),
};

const leadForm = {
  mode: StringEnum(LEAD_FORM_MODES, { description: 'When the lead form shows' }),
  name: LeadFieldRule,
  email: LeadFieldRule,
  phone: LeadFieldRule,
};

/** The whole settings, as agents answer them (defaults filled in). */
export const WidgetSettings = Type.Object({ ...fields, leadForm: Type.Object(leadForm) }, { description: 'The chat widget’s look and behaviour' });

/** A change: any field; the lead form's fields one by one. */
export const WidgetSettingsPatch = Type.Partial(Type.Object({ ...fields, leadForm: Type.Partial(Type.Object(leadForm)) }), {
  description: 'Widget settings to change; the others stay',
});

/** `GET /agents/{id}/widget`: what the chat widget shows for a public agent. */
export const WidgetConfig = Type.Object({ agentId: Type.String(), name: Type.String(), iconUrl: Nullable(Type.String()), widget: WidgetSettings });

export type WidgetSettingsBody = Static<typeof WidgetSettings>;
export type WidgetSettingsPatchBody = Static<typeof WidgetSettingsPatch>;
export type WidgetConfigBody = Static<typeof WidgetConfig>;
