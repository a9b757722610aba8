import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
import { streamAnswer } from '../../api';
import { useModels } from '../../queries/models';
import type { Agent, AgentAnswer, AnswerSource, PlaygroundQuestion } from '../../queries/agents';
import { AnswerSources } from '../../components/answer-sources';
import { servedBy } from '../../components/model-description';

interface Turn {
  id: number;
  question: string;
  answer: string;
  state: 'streaming' | 'done' | 'failed' | 'stopped';
  error?: string;
  sources?: AnswerSource[];
  answeredBy?: AgentAnswer['model'];
}

/**
 * Chat with the agent as a visitor would, through the public streaming API: the answer appears as it
 * is written, its sources under it. A model or temperature override (kept in the URL) applies to the
 * questions asked here only.
 */
export function Playground({ agent }: { agent: Agent }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const models = useModels();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [conversationId, setConversationId] = useState<string | undefined>();
  const [question, setQuestion] = useState('');
  const abort = useRef<AbortController | null>(null);
  const lastTurn = useRef<HTMLDivElement>(null);
  const streaming = turns.some((turn) => turn.state === 'streaming');

  const modelOverride = params.get('model') ?? '';
  const temperatureOverride = params.get('temperature') ?? '';
  const setOverride = (name: 'model' | 'temperature', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );

  useEffect(() => () => abort.current?.abort(), []);
  // A new question scrolls to its top; the answer then grows below it without pulling the view along.
  useEffect(() => {
    lastTurn.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [turns.length]);

  const update = (turnId: number, change: (turn: Turn) => Partial<Turn>) =>
    setTurns((all) => all.map((turn) => (turn.id === turnId ? { ...turn, ...change(turn) } : turn)));

  const ask = async (text: string) => {
    const turnId = Date.now();
    setTurns((all) => [...all, { id: turnId, question: text, answer: '', state: 'streaming' }]);
    setQuestion('');
    const controller = new AbortController();
    abort.current = controller;
    const temperature = Number(temperatureOverride);
    const body: PlaygroundQuestion & { streaming: true; channel: 'dashboard' } = {
      query: text,
      streaming: true,
      channel: 'dashboard',
      ...(conversationId === undefined ? {} : { conversationId }),
      ...(modelOverride === '' ? {} : { modelName: modelOverride }),
      ...(temperatureOverride === '' || Number.isNaN(temperature) ? {} : { temperature }),
    };
    try {
      const result = await streamAnswer(
        `/agents/${encodeURIComponent(agent.id)}/query`,
        body,
        (delta) => update(turnId, (turn) => ({ answer: turn.answer + delta })),
        controller.signal,
      );
      setConversationId(result.conversationId);
      update(turnId, (turn) => ({ state: 'done', answer: result.answer ?? turn.answer, sources: result.sources ?? [], answeredBy: result.model }));
    } catch (error) {
      if (controller.signal.aborted) update(turnId, () => ({ state: 'stopped' }));
      else update(turnId, () => ({ state: 'failed', error: error instanceof Error ? error.message : 'The answer failed.' }));
    }
  };

  const newConversation = () => {
    abort.current?.abort();
    setTurns([]);
    setConversationId(undefined);
  };

  return (
    <div className="playground">
      <details className="overrides">
        <summary>Try other settings{modelOverride !== '' || temperatureOverride !== '' ? ' (changed)' : ''}</summary>
        <p className="field-hint">They apply to the questions asked here; the agent keeps its own.</p>
        <div className="form-row">
          <div className="field">
            <label htmlFor={`${id}-model`}>Model</label>
            <select id={`${id}-model`} className="input" value={modelOverride} onChange={(event) => setOverride('model', event.target.value)}>
              <option value="">The agent’s ({agent.modelName})</option>
              {models.data?.map((model) => (
                <option key={model.name} value={model.name}>
                  {model.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-temperature`}>Temperature</label>
            <input
              id={`${id}-temperature`}
              className="input"
              type="number"
              min={0}
              max={1}
              step={0.1}
              placeholder={`The agent’s (${agent.temperature})`}
              value={temperatureOverride}
              onChange={(event) => setOverride('temperature', event.target.value)}
            />
          </div>
        </div>
      </details>

      <div className="chat-log" role="log" aria-label="Conversation" aria-live="polite">
        {turns.length === 0 ? (
          <p className="muted chat-empty">
            Ask {agent.name} something its datastores cover. {agent.tools.length === 0 && 'It has no datastore yet: attach one in its settings.'}
          </p>
        ) : (
          turns.map((turn, index) => (
            <div key={turn.id} className="turn" ref={index === turns.length - 1 ? lastTurn : undefined}>
              <div className="bubble bubble-user">
                <span className="visually-hidden">You: </span>
                {turn.question}
              </div>
              <div className="bubble bubble-agent" aria-busy={turn.state === 'streaming'}>
                <span className="visually-hidden">{agent.name}: </span>
                {turn.answer === '' && turn.state === 'streaming' ? (
                  <span className="typing">Thinking…</span>
                ) : (
                  <span className="answer-text">{turn.answer}</span>
                )}
                {turn.state === 'failed' && (
                  <p className="field-error" role="alert">
                    {turn.error}
                  </p>
                )}
                {turn.state === 'stopped' && <p className="muted small">Stopped.</p>}
                {turn.sources !== undefined && <AnswerSources sources={turn.sources} />}
                {turn.answeredBy !== undefined && (
                  <p className="answered-by">
                    Answered by <code>{turn.answeredBy.name}</code>: {servedBy(turn.answeredBy)}
                  </p>
                )}
              </div>
            </div>
          ))
        )}
      </div>

      <form
        className="chat-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (question.trim() !== '' && !streaming) void ask(question.trim());
        }}
      >
        <label htmlFor={`${id}-question`} className="visually-hidden">
          Your question
        </label>
        <textarea
          id={`${id}-question`}
          className="input chat-input"
          rows={2}
          value={question}
          placeholder="Ask a question… (Enter sends, Shift+Enter adds a line)"
          onChange={(event) => setQuestion(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <div className="chat-actions">
          {streaming ? (
            <button type="button" className="button" onClick={() => abort.current?.abort()}>
              Stop
            </button>
          ) : (
            <button type="submit" className="button button-primary" disabled={question.trim() === ''}>
              Send
            </button>
          )}
          <button type="button" className="button button-quiet" onClick={newConversation} disabled={turns.length === 0}>
            New conversation
          </button>
        </div>
      </form>
    </div>
  );
}
