/**
 * The framing of Parley's `text/event-stream` answers (the agent's streamed answer, the event streams): the
 * server writes frames with {@link encodeSseFrame}; the dashboard, the widget and the tests read them with
 * {@link sseParser}. It covers the part of the format Parley sends (id, event, data, comments) in a few
 * hundred bytes, where a library would be a tenth of the widget's size budget.
 */

/** One server-sent event: its id, its name (none: unnamed, `message` to an EventSource) and its data. */
export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
}

/** The frame as written on the wire; `data` must not hold a line break (callers encode it). */
export const encodeSseFrame = ({ id, event, data }: SseFrame): string =>
  `${id === undefined ? '' : `id: ${id}\n`}${event === undefined ? '' : `event: ${event}\n`}data: ${data}\n\n`;

/** Takes the stream's text as it arrives, however it is cut, and hands each complete frame to `onFrame`. */
export function sseParser(onFrame: (frame: SseFrame) => void): { feed(text: string): void } {
  let buffer = '';
  let frame: SseFrame = { data: '' };
  let hasData = false;
  return {
    feed(text) {
      // A \r at the very end may be the first half of a \r\n: it waits for the next piece.
      const lines = (buffer + text).split(/\r\n|\r(?!$)|\n/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (hasData) onFrame(frame);
          frame = { data: '' };
          hasData = false;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'event') frame.event = value || undefined;
        else if (field === 'id') frame.id = value;
        else if (field === 'data') {
          frame.data = hasData ? `${frame.data}\n${value}` : value;
          hasData = true;
        }
      }
    },
  };
}
