/** One server-sent event: its name (`message` when unnamed), data lines joined by newlines, and its id. */
export interface SseFrame {
  event: string;
  data: string;
  id: string | undefined;
}

/**
 * Reads a `text/event-stream` body frame by frame. EventSource cannot send a POST body or an
 * Authorization header, so the widget reads the stream through `fetch`; this parser covers the part of
 * the format Parley sends (event, data, id, comments) in a few hundred bytes, where a library would be
 * a tenth of the widget's size budget.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let frame: SseFrame = { event: 'message', data: '', id: undefined };
  let hasData = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (hasData || frame.event !== 'message') yield frame;
        frame = { event: 'message', data: '', id: undefined };
        hasData = false;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
      if (field === 'event') frame.event = value || 'message';
      else if (field === 'id') frame.id = value;
      else if (field === 'data') {
        frame.data = hasData ? `${frame.data}\n${value}` : value;
        hasData = true;
      }
    }
  }
}
