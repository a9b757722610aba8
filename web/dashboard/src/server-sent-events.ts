/** One server-sent event: its name (`message` when unnamed) and its data lines joined by newlines. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/** Parses one event block (the lines between blank lines); comments and unknown fields are skipped. */
function parseBlock(block: string): ServerSentEvent | null {
  let event = '';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event: event || 'message', data: data.join('\n') };
}

/** The events of a `text/event-stream` body as they arrive, whatever way the bytes are cut. */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const event = parseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event !== null) yield event;
        end = buffer.indexOf('\n\n');
      }
    }
    const last = parseBlock(buffer);
    if (last !== null) yield last;
  } finally {
    reader.releaseLock();
  }
}
