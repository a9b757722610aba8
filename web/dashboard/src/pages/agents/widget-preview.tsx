import type { CSSProperties } from 'react';
// The widget's own words and colour rule, from its DOM-free modules: the picture cannot drift from the widget.
import { accentOf, onAccent } from '../../../../widget/src/accent';
import { widgetLanguage } from '../../../../widget/src/strings/index';
import type { WidgetSettings } from '../../queries/agents';

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
  // `auto` previews the dashboard's own browser language, as the widget would for this visitor.
  const language = widgetLanguage(settings.language);
  const t = language.strings;
  const title = settings.title === null || settings.title.trim() === '' ? agentName : settings.title;
  const avatarUrl = settings.avatarUrl ?? agentIconUrl;
  const image = sameOriginImage(avatarUrl);
  const initial = Array.from(title.trim())[0]?.toUpperCase() ?? '?';
  const color = accentOf(settings.color);
  const accent = { '--widget-accent': color, '--widget-on-accent': onAccent(color) } as CSSProperties;
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
      <div className="widget-preview-panel" dir={language.dir} lang={language.lang}>
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
              <span className="widget-preview-lead-title">{t.leadTitle}</span>
              {leadFields.map((field) => (
                <span key={field} className="widget-preview-input">
                  {t[field]}
                  {lead[field] === 'required' ? ' *' : ''}
                </span>
              ))}
              <span className="widget-preview-button">{t.submit}</span>
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
          {settings.humanHandoff && <span className="widget-preview-person">{t.talkToPerson}</span>}
          <span className="widget-preview-input widget-preview-composer">{t.placeholder}</span>
          {!settings.hideBranding && <span className="widget-preview-branding">{t.poweredBy}</span>}
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
