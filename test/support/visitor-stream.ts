import http from 'node:http';
import { sseParser } from '../../src/contract/server-sent-events.js';
import { Arrivals } from './arrivals.js';

/** A frame of the visitor's live stream, its data parsed. */
export interface VisitorFrame {
  event: string;
  data: Record<string, unknown>;
}

/** The widget's live view: frames of `GET /agents/{id}/conversation/events`, over a connection of its own. */
export async function follow(url: string, token: string): Promise<{ frames: Arrivals<VisitorFrame>; close(): void }> {
  const frames = new Arrivals<VisitorFrame>();
  const request = http.get(url, { headers: { authorization: `Bearer ${token}` }, agent: false });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => request.on('response', resolve).on('error', reject));
  if (response.statusCode !== 200) throw new Error(`stream answered ${response.statusCode}`);
  let ready!: () => void;
  const live = new Promise<void>((resolve) => (ready = resolve));
  const parser = sseParser((frame) => {
    if (frame.event === 'ready') ready();
    else frames.push({ event: frame.event ?? 'message', data: JSON.parse(frame.data) as Record<string, unknown> });
  });
  response.setEncoding('utf8');
  response.on('data', (text: string) => parser.feed(text));
  await live;
  return { frames, close: () => request.destroy() };
}
