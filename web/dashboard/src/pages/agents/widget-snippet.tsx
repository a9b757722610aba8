import { CopyButton } from '../../components/copy-button';

/** Double quotes and ampersands escaped, for an HTML attribute's value. */
const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * The script tags to paste into a website. The widget is served by Parley at `/widget.js`, as is this
 * dashboard, so the dashboard's own origin is Parley's public address.
 */
export function widgetSnippets(origin: string, agentId: string): { floating: string; inline: string } {
  const source = `${attribute(origin)}/widget.js`;
  const id = attribute(agentId);
  return {
    floating: `<script src="${source}" data-agent-id="${id}" async></script>`,
    inline: `<div id="help"></div>\n<script src="${source}" data-agent-id="${id}" data-mode="inline" data-target="#help" async></script>`,
  };
}

/**
 * A snippet as it is copied, each tag's attributes wrapped as a whole where the line is too narrow
 * (not at the hyphen in `data-agent-id`); one longer than the line still breaks.
 */
function SnippetCode({ code }: { code: string }) {
  return (
    <pre className="code snippet-code">
      {code.split('\n').map((line, at) => (
        <span key={at}>
          {at > 0 && '\n'}
          {line.split(' ').map((token, index) => (
            <span key={index}>
              {index > 0 && ' '}
              <span className="snippet-token">{token}</span>
            </span>
          ))}
        </span>
      ))}
    </pre>
  );
}

/** The snippets with their copy buttons. */
export function WidgetSnippet({ agentId }: { agentId: string }) {
  const snippets = widgetSnippets(window.location.origin, agentId);
  return (
    <section className="widget-snippet" aria-labelledby="widget-snippet-title">
      <h2 id="widget-snippet-title" className="form-section-title">
        Add it to your website
      </h2>
      <p className="muted small">
        Paste this before <code>{'</body>'}</code> on every page that should show the chat bubble. The settings below apply as soon as they are saved;
        the snippet stays the same.
      </p>
      <div className="snippet">
        <div className="snippet-head">
          <h3>Chat bubble</h3>
          <CopyButton text={snippets.floating} label="Copy the snippet" />
        </div>
        <SnippetCode code={snippets.floating} />
      </div>
      <div className="snippet">
        <div className="snippet-head">
          <h3>Inside an element of the page</h3>
          <CopyButton text={snippets.inline} label="Copy the inline snippet" />
        </div>
        <SnippetCode code={snippets.inline} />
        <p className="field-hint">
          The chat fills the element that <code>data-target</code> names (here <code>#help</code>) instead of floating over the page.
        </p>
      </div>
    </section>
  );
}
