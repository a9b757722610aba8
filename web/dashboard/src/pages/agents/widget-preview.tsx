import type { CSSProperties } from 'react';
import type { WidgetSettings } from '../../queries/agents';

/** The widget's own words for what the preview shows, in the languages it ships. */
const STRINGS = {
  en: { placeholder: 'Write a message…', person: 'Talk to a person', branding: 'Powered by Parley', lead: 'Before we start', name: 'Name', email: 'E-mail', phone: 'Phone', start: 'Start' },
  fr: { placeholder: 'Écrivez un message…', person: 'Parler à une personne', branding: 'Propulsé par Parley', lead: 'Avant de commencer', name: 'Nom', email: 'E-mail', phone: 'Téléphone', start: 'Commencer' },
  ar: { placeholder: 'اكتب رسالة…', person: 'التحدث إلى شخص', branding: 'بدعم من Parley', lead: 'قبل أن نبدأ', name: 'الاسم', email: 'البريد الإلكتروني', phone: 'الهاتف', start: 'ابدأ' },
} as const;

type Language = keyof typeof STRINGS;

const isLanguage = (value: string): value is Language => value in STRINGS;

/** `auto` previews the dashboard's own browser language, as the widget would for this visitor. */
function languageOf(setting: WidgetSettings['language']): Language {
  if (setting !== 'auto') return setting;
  const browser = navigator.language.slice(0, 2).toLowerCase();
  return isLanguage(browser) ? browser : 'en';
}

/** Relative luminance of `#rrggbb` (WCAG). */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const value = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** White or near-black, whichever reads better on the accent colour. */
export function textOn(hex: string): string {
  const accent = luminance(hex);
  const onWhite = 1.05 / (accent + 0.05);
  const onDark = (accent + 0.05) / (luminance('#111827') + 0.05);
  return onWhite >= onDark ? '#ffffff' : '#111827';
}

/**
 * Only an image of the dashboard's own origin can be drawn here: the dashboard loads nothing from
 * elsewhere (its CSP), so another site's avatar is shown as the initial, and on the visitor's page as itself.
 */
function sameOriginImage(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url, window.location.href).origin === window.location.origin ? url : null;
  } catch {
    return null;
  }
}

interface WidgetPreviewProps {
  settings: WidgetSettings;
  agentName: string;
  agentIconUrl: string | null;
  /** The scheme to draw: the settings' theme, or for `auto` the one chosen beside the preview. */
  scheme: 'light' | 'dark';
}

/**
 * A picture of the widget drawn by the dashboard, not the widget itself: the open panel above its bubble
 * on a sketched page, with the look the settings give it. Every text from the settings is rendered as text.
 */
export function WidgetPreview({ settings, agentName, agentIconUrl, scheme }: WidgetPreviewProps) {
  const language = languageOf(settings.language);
  const strings = STRINGS[language];
  const title = settings.title === null || settings.title.trim() === '' ? agentName : settings.title;
  const avatarUrl = settings.avatarUrl ?? agentIconUrl;
  const image = sameOriginImage(avatarUrl);
  const initial = Array.from(title.trim())[0]?.toUpperCase() ?? '?';
  const accent = { '--widget-accent': settings.color, '--widget-on-accent': textOn(settings.color) } as CSSProperties;
  const messages = [settings.greeting, ...settings.initialMessages].filter((message) => message.trim() !== '');
  const questions = settings.suggestedQuestions.filter((question) => question.trim() !== '');
  const lead = settings.leadForm;
  const leadFields = (['name', 'email', 'phone'] as const).filter((field) => lead[field] !== 'off');

  return (
    <div className={`widget-preview widget-preview-${scheme} widget-preview-${settings.position}`} style={accent}>
      <div className="widget-preview-page" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <div className="widget-preview-panel" dir={language === 'ar' ? 'rtl' : 'ltr'} lang={language}>
        <div className="widget-preview-header">
          {image === null ? (
            <span className="widget-preview-avatar" aria-hidden="true">
              {initial}
            </span>
          ) : (
            <img className="widget-preview-avatar" src={image} alt="" />
          )}
          <span className="widget-preview-title">{title}</span>
          <span className="widget-preview-close" aria-hidden="true">
            ×
          </span>
        </div>
        <div className="widget-preview-body">
          {messages.map((message, index) => (
            <p key={index} className="widget-preview-message">
              {message}
            </p>
          ))}
          {lead.mode === 'before-first-question' && leadFields.length > 0 && (
            <div className="widget-preview-lead">
              <span className="widget-preview-lead-title">{strings.lead}</span>
              {leadFields.map((field) => (
                <span key={field} className="widget-preview-input">
                  {strings[field]}
                  {lead[field] === 'required' ? ' *' : ''}
                </span>
              ))}
              <span className="widget-preview-button">{strings.start}</span>
            </div>
          )}
          {questions.length > 0 && (
            <ul className="widget-preview-questions">
              {questions.map((question, index) => (
                <li key={index}>{question}</li>
              ))}
            </ul>
          )}
        </div>
        <div className="widget-preview-footer">
          {settings.humanHandoff && <span className="widget-preview-person">{strings.person}</span>}
          <span className="widget-preview-input widget-preview-composer">{strings.placeholder}</span>
          {!settings.hideBranding && <span className="widget-preview-branding">{strings.branding}</span>}
        </div>
      </div>
      <span className="widget-preview-bubble" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="26" height="26" focusable="false">
          <path d="M4 5h16v11H9l-5 4V5z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
        </svg>
      </span>
    </div>
  );
}
