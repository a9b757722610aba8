import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { fieldError } from '../../api';
import { ChoiceField } from '../../components/choice-field';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { ListEditor } from '../../components/list-editor';
import { SuccessNotice } from '../../components/success-notice';
import { useUpdateAgent, type Agent, type LeadFieldRule, type WidgetSettings } from '../../queries/agents';
import { WidgetPreview } from './widget-preview';
import { WidgetSnippet } from './widget-snippet';

/** The form's values: the settings with the title and avatar as typed ('' for none). */
interface Draft {
  widget: Omit<WidgetSettings, 'title' | 'avatarUrl'> & { title: string; avatarUrl: string };
  allowedOrigins: string[];
}

const draftOf = (agent: Agent): Draft => ({
  widget: { ...agent.widget, leadForm: { ...agent.widget.leadForm }, title: agent.widget.title ?? '', avatarUrl: agent.widget.avatarUrl ?? '' },
  allowedOrigins: [...agent.allowedOrigins],
});

/** Entries left blank are dropped before saving. */
const filled = (items: readonly string[]) => items.map((item) => item.trim()).filter((item) => item !== '');

/** The draft as it is sent, blank list entries dropped. */
function tidy(draft: Draft): Draft {
  return {
    widget: { ...draft.widget, initialMessages: filled(draft.widget.initialMessages), suggestedQuestions: filled(draft.widget.suggestedQuestions) },
    allowedOrigins: filled(draft.allowedOrigins),
  };
}

const settingsOf = ({ widget }: Draft): WidgetSettings => ({
  ...widget,
  title: widget.title.trim() === '' ? null : widget.title,
  avatarUrl: widget.avatarUrl.trim() === '' ? null : widget.avatarUrl.trim(),
});

const DARK = '(prefers-color-scheme: dark)';
const currentScheme = (): 'light' | 'dark' => (window.matchMedia(DARK).matches ? 'dark' : 'light');
function subscribeToScheme(changed: () => void): () => void {
  const query = window.matchMedia(DARK);
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
}

const HEX = /^#[0-9a-f]{6}$/i;

/** Every field the form shows an API message beside. */
const FIELDS = [
  'widget.color',
  'widget.position',
  'widget.theme',
  'widget.title',
  'widget.avatarUrl',
  'widget.greeting',
  'widget.initialMessages',
  'widget.suggestedQuestions',
  'widget.language',
  'widget.humanHandoff',
  'widget.ratings',
  'widget.leadForm',
  'widget.hideBranding',
  'allowedOrigins',
];

const RULES: readonly { value: LeadFieldRule; label: string }[] = [
  { value: 'off', label: 'Not asked' },
  { value: 'optional', label: 'Optional' },
  { value: 'required', label: 'Required' },
];

const LEAD_FIELDS = [
  { key: 'name', label: 'Name' },
  { key: 'email', label: 'E-mail' },
  { key: 'phone', label: 'Phone' },
] as const;

const POSITION_CHOICES = [
  { value: 'left', label: 'Left' },
  { value: 'right', label: 'Right' },
] as const;
const THEME_CHOICES = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'auto', label: 'Automatic' },
] as const;
const LEAD_FORM_CHOICES = [
  { value: 'off', label: 'Never' },
  { value: 'before-first-question', label: 'Before the first question' },
  { value: 'after-first-answer', label: 'After the first answer' },
] as const;

/** The agent's chat widget: the snippet to paste, its settings with a live picture, and who may embed it. */
export function WidgetTab({ agent }: { agent: Agent }) {
  const update = useUpdateAgent(agent.id);
  const publish = useUpdateAgent(agent.id);
  const [draft, setDraft] = useState(() => draftOf(agent));
  const systemScheme = useSyncExternalStore(subscribeToScheme, currentScheme);
  // For an automatic theme the preview follows the system's scheme until a scheme is picked beside it.
  const [pickedScheme, setPreviewScheme] = useState<'light' | 'dark' | null>(null);
  const previewScheme = pickedScheme ?? systemScheme;
  const error = update.error;
  const widgetError = (name: string) => fieldError(error, `widget.${name}`);
  const dirty = JSON.stringify(tidy(draft)) !== JSON.stringify(tidy(draftOf(agent)));
  const saved = update.isSuccess && !dirty;

  const widget = draft.widget;
  const change = (fields: Partial<Draft['widget']>) => setDraft((current) => ({ ...current, widget: { ...current.widget, ...fields } }));
  const changeLead = (fields: Partial<WidgetSettings['leadForm']>) =>
    setDraft((current) => ({ ...current, widget: { ...current.widget, leadForm: { ...current.widget.leadForm, ...fields } } }));
  // The preview keeps the last good colour while the hex field holds something else.
  const shownColor = HEX.test(widget.color) ? widget.color : agent.widget.color;
  const scheme = widget.theme === 'auto' ? previewScheme : widget.theme;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const sent = tidy(draft);
    setDraft(sent);
    update.mutate({ widget: settingsOf(sent), allowedOrigins: sent.allowedOrigins }, { onSuccess: (answer) => setDraft(draftOf(answer)) });
  };

  return (
    <div className="stack widget-tab">
      {agent.visibility === 'private' ? (
        <div className="alert alert-warning widget-notice">
          <p>
            <strong>This agent is private, so the widget cannot answer.</strong> The widget talks to public agents only: a public agent answers anyone
            who has its id, from the pages of the allowed origins below.
          </p>
          <div className="widget-notice-actions">
            <button
              type="button"
              className="button button-primary button-small"
              disabled={publish.isPending}
              onClick={() => publish.mutate({ visibility: 'public' })}
            >
              {publish.isPending ? 'Making it public…' : 'Make the agent public'}
            </button>
          </div>
          {publish.isError && (
            <p className="field-error" role="alert">
              {publish.error.message}
            </p>
          )}
        </div>
      ) : (
        <SuccessNotice shown={publish.isSuccess}>The agent is public: the widget can answer on your website.</SuccessNotice>
      )}

      <WidgetSnippet agentId={agent.id} />

      <div className="widget-layout">
        <form className="form" noValidate onSubmit={submit} aria-label="Widget settings">
          <FormAlert error={error} fields={FIELDS} />
          <SuccessNotice shown={saved}>Saved. Pages with the snippet show the new settings from their next load.</SuccessNotice>

          <div className="form-section">
            <h2 className="form-section-title">Look</h2>
            <Field label="Colour" error={widgetError('color')} hint="The bubble, the header and the buttons; #rrggbb.">
              {(control) => (
                <div className="color-field">
                  <input
                    type="color"
                    className="color-swatch"
                    aria-label="Pick the colour"
                    value={shownColor.toLowerCase()}
                    onChange={(event) => change({ color: event.target.value })}
                  />
                  <input
                    {...control}
                    className="input mono"
                    value={widget.color}
                    maxLength={7}
                    spellCheck={false}
                    autoComplete="off"
                    onChange={(event) => change({ color: event.target.value.trim() })}
                  />
                </div>
              )}
            </Field>
            <div className="form-row">
              <ChoiceField
                legend="Position"
                name="position"
                value={widget.position}
                options={POSITION_CHOICES}
                onChange={(position) => change({ position })}
                error={widgetError('position')}
              />
              <ChoiceField
                legend="Theme"
                name="theme"
                value={widget.theme}
                options={THEME_CHOICES}
                onChange={(theme) => change({ theme })}
                hint={widget.theme === 'auto' ? 'Follows the visitor’s system setting.' : undefined}
                error={widgetError('theme')}
              />
            </div>
            <Field label="Title" error={widgetError('title')} hint={`Empty: the agent’s name (${agent.name}).`}>
              {(control) => (
                <input
                  {...control}
                  className="input"
                  value={widget.title}
                  maxLength={80}
                  placeholder={agent.name}
                  onChange={(event) => change({ title: event.target.value })}
                />
              )}
            </Field>
            <Field label="Avatar image URL" error={widgetError('avatarUrl')} hint="An http or https address. Empty: the agent’s icon.">
              {(control) => (
                <input
                  {...control}
                  className="input"
                  type="url"
                  value={widget.avatarUrl}
                  maxLength={2000}
                  placeholder="https://www.example.com/avatar.png"
                  spellCheck={false}
                  onChange={(event) => change({ avatarUrl: event.target.value })}
                />
              )}
            </Field>
          </div>

          <div className="form-section">
            <h2 className="form-section-title">First messages</h2>
            <Field label="Greeting" error={widgetError('greeting')} hint="The first line the visitor reads.">
              {(control) => (
                <textarea
                  {...control}
                  className="input"
                  rows={2}
                  value={widget.greeting}
                  maxLength={500}
                  onChange={(event) => change({ greeting: event.target.value })}
                />
              )}
            </Field>
            <ListEditor
              legend="More opening messages"
              itemLabel="Message"
              items={widget.initialMessages}
              onChange={(initialMessages) => change({ initialMessages })}
              max={5}
              maxLength={1000}
              multiline
              hint="Shown after the greeting, as the agent’s, before the visitor writes."
              error={widgetError('initialMessages')}
              itemError={(index) => widgetError(`initialMessages.${index}`)}
            />
            <ListEditor
              legend="Suggested questions"
              itemLabel="Question"
              items={widget.suggestedQuestions}
              onChange={(suggestedQuestions) => change({ suggestedQuestions })}
              max={6}
              maxLength={200}
              placeholder="What are your opening hours?"
              hint="Offered as buttons until the visitor asks something."
              error={widgetError('suggestedQuestions')}
              itemError={(index) => widgetError(`suggestedQuestions.${index}`)}
            />
          </div>

          <div className="form-section">
            <h2 className="form-section-title">Behaviour</h2>
            <Field
              label="Language"
              error={widgetError('language')}
              hint="Of the widget’s own words (buttons, placeholders); the agent answers in the visitor’s."
            >
              {(control) => (
                <select
                  {...control}
                  className="input"
                  value={widget.language}
                  onChange={(event) => change({ language: event.target.value as WidgetSettings['language'] })}
                >
                  <option value="auto">The visitor’s browser language</option>
                  <option value="en">English</option>
                  <option value="fr">French (Français)</option>
                  <option value="ar">Arabic (العربية)</option>
                </select>
              )}
            </Field>
            <fieldset className="fieldset">
              <legend>Options</legend>
              <label className="check">
                <input type="checkbox" checked={widget.humanHandoff} onChange={(event) => change({ humanHandoff: event.target.checked })} />
                <span>
                  “Talk to a person” button <span className="muted">— the conversation goes to the inbox</span>
                </span>
              </label>
              <label className="check">
                <input type="checkbox" checked={widget.ratings} onChange={(event) => change({ ratings: event.target.checked })} />
                <span>
                  Rating buttons under answers <span className="muted">— shown in analytics</span>
                </span>
              </label>
              <label className="check">
                <input type="checkbox" checked={widget.hideBranding} onChange={(event) => change({ hideBranding: event.target.checked })} />
                <span>Hide “Powered by Parley”</span>
              </label>
            </fieldset>
          </div>

          <div className="form-section">
            <h2 className="form-section-title">Lead form</h2>
            <ChoiceField
              legend="Ask for contact details"
              name="leadFormMode"
              value={widget.leadForm.mode}
              options={LEAD_FORM_CHOICES}
              onChange={(mode) => changeLead({ mode })}
              hint="The details go to the conversation’s contact in the inbox."
              error={widgetError('leadForm.mode')}
            />
            <div className="form-row form-row-3">
              {LEAD_FIELDS.map(({ key, label }) => (
                <Field key={key} label={label} error={widgetError(`leadForm.${key}`)}>
                  {(control) => (
                    <select
                      {...control}
                      className="input"
                      value={widget.leadForm[key]}
                      disabled={widget.leadForm.mode === 'off'}
                      onChange={(event) => changeLead({ [key]: event.target.value as LeadFieldRule })}
                    >
                      {RULES.map((rule) => (
                        <option key={rule.value} value={rule.value}>
                          {rule.label}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              ))}
            </div>
          </div>

          <div className="form-section">
            <h2 className="form-section-title">Where it may run</h2>
            <ListEditor
              legend="Allowed origins"
              itemLabel="Origin"
              items={draft.allowedOrigins}
              onChange={(allowedOrigins) => setDraft((current) => ({ ...current, allowedOrigins }))}
              max={100}
              maxLength={300}
              inputMode="url"
              placeholder="https://www.example.com"
              hint="The websites whose pages may use the widget: scheme, host and port, no path. Empty allows any website."
              emptyText="None: the widget works on any website."
              error={fieldError(error, 'allowedOrigins')}
            />
          </div>

          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={update.isPending}>
              {update.isPending ? 'Saving…' : 'Save widget settings'}
            </button>
            {dirty && (
              <button
                type="button"
                className="button"
                onClick={() => {
                  setDraft(draftOf(agent));
                  update.reset();
                }}
              >
                Discard changes
              </button>
            )}
          </div>
        </form>

        <aside className="widget-preview-column" aria-labelledby="widget-preview-title">
          <div className="section-header">
            <h2 id="widget-preview-title" className="form-section-title">
              Preview
            </h2>
            {widget.theme === 'auto' && (
              <div className="segmented segmented-small" role="radiogroup" aria-label="Preview in">
                {(['light', 'dark'] as const).map((value) => (
                  <label key={value} className="segment">
                    <input
                      type="radio"
                      name="previewScheme"
                      value={value}
                      checked={previewScheme === value}
                      onChange={() => setPreviewScheme(value)}
                    />
                    <span>{value === 'light' ? 'Light' : 'Dark'}</span>
                  </label>
                ))}
              </div>
            )}
          </div>
          <WidgetPreview
            settings={settingsOf({ ...draft, widget: { ...widget, color: shownColor } })}
            agentName={agent.name}
            agentIconUrl={agent.iconUrl}
            scheme={scheme}
          />
          <p className="muted small">A sketch drawn here from the settings above; visitors see the widget itself.</p>
        </aside>
      </div>
    </div>
  );
}
