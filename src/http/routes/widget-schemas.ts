import { Type } from '@sinclair/typebox';
import { LEAD_FIELD_RULES, LEAD_FORM_MODES, WIDGET_LANGUAGES } from '../../domain/widget-settings.js';
import { Nullable, StringEnum } from '../schemas.js';

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
export const WidgetSettingsPatch = Type.Partial(
  Type.Object({ ...fields, leadForm: Type.Partial(Type.Object(leadForm)) }),
  { description: 'Widget settings to change; the others stay' },
);
