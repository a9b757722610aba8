import { afterAll, describe, expect, it } from 'vitest';
import { FakeOpenAIChatServer } from '../support/fake-openai-chat-server.js';
import { callParley, startTestParley } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';
import { until } from '../support/until.js';
import { startServeProcess, type ServeProcess } from '../support/worker-process.js';
import type { ConversationBody } from '../support/bodies.js';

/** Reads a streamed answer until its first `answer` event; resolves with the words the visitor saw. */
async function firstWords(response: Response): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before an answer event: ${seen}`);
    seen += value;
    const delta = /event: answer\ndata: (.*)\n\n/.exec(seen);
    if (delta) return decodeURIComponent(delta[1]!);
  }
}

describe.each(STORE_KINDS)('parley start killed mid-answer on %s', (kind) => {
  const model = new FakeOpenAIChatServer();
  // The rest of the answer never comes while the process lives: it is killed half-way.
  let releaseRest: () => void = () => undefined;
  let scratch: ScratchStore;
  let models: string;
  let key: string;
  let agentId: string;
  let child: ServeProcess | undefined;

  parleyTest.beforeAll(async ({ startParley }) => {
    models = JSON.stringify({ remote: { provider: 'openai-compatible', model: 'fake-chat', baseURL: await model.start() } });
    scratch = await createScratchStore(kind);
    const setup = await startParley(kind, { scratch, env: { PARLEY_MODELS: models } });
    try {
      key = (await setup.newWorkspace()).key;
      agentId = (await setup.call<{ id: string }>('POST', '/agents', { key, body: { name: 'Help desk', modelName: 'remote' } })).body.id;
    } finally {
      await setup.close();
    }
  }, 60_000);
  afterAll(async () => {
    releaseRest();
    await child?.stop();
    await model.stop();
    await scratch?.drop();
  });

  it('keeps the words the visitor saw, marked interrupted, after SIGKILL and a restart', async () => {
    child = await startServeProcess({ ...scratch.env, PARLEY_MODELS: models }, { withWorkers: true });
    const rest = new Promise<void>((resolve) => (releaseRest = resolve));
    model.replies.push({ kind: 'answer', deltas: ['The shop opens at nine', ' and closes at six.'], restAfter: rest });
    const conversationId = `crash-${kind}-${Date.now()}`;
    const response = await fetch(`${child.url}/agents/${agentId}/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'When are you open?', streaming: true, conversationId }),
    });
    const seen = await firstWords(response);
    expect(seen).toBe('The shop opens at nine');
    // Stored while the answer is still under way, then the process is killed without a chance to write more.
    const url = child.url;
    await until(
      async () => (await callParley<ConversationBody>(url, 'GET', `/conversations/${conversationId}`, { key })).body.messages?.length,
      (count) => count === 2,
    );
    const killed = new Promise((resolve) => child!.process.once('exit', resolve));
    child.process.kill('SIGKILL');
    await killed;

    const restarted = await startTestParley(kind, { scratch, env: { PARLEY_MODELS: models } });
    try {
      const { messages } = (await restarted.call<ConversationBody>('GET', `/conversations/${conversationId}`, { key })).body;
      // Newest first, as GET /conversations/{id} answers.
      expect(messages.map(({ from, text, interrupted }) => ({ from, text, interrupted }))).toEqual([
        { from: 'agent', text: seen, interrupted: true },
        { from: 'human', text: 'When are you open?', interrupted: undefined },
      ]);
    } finally {
      await restarted.close();
    }
  }, 180_000);
});
