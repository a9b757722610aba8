import { CHANNEL_LABELS } from '../../components/channel-label';

/** The chart colours of the stylesheets (styles/base.css), light and dark. */
const CHART_COLORS = 8;
const CHANNEL_ORDER = Object.keys(CHANNEL_LABELS);

/** A channel's colour, the same whatever the filter, so a channel keeps its colour from one view to the next. */
export function channelColor(channel: string): string {
  const known = CHANNEL_ORDER.indexOf(channel);
  const index = known >= 0 ? known : [...channel].reduce((sum, char) => sum + (char.codePointAt(0) ?? 0), 0);
  return `--chart-${(index % CHART_COLORS) + 1}`;
}

const DAY_MS = 86_400_000;

/** Today as the API counts days: YYYY-MM-DD in UTC. */
export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);

const shortDay = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** "3 Jan": a day of the range on a chart's axis. */
export const formatShortDay = (date: string): string => shortDay.format(new Date(`${date}T00:00:00.000Z`));
/** "3 Jan 2030". */
export const formatDay = (date: string): string => longDay.format(new Date(`${date}T00:00:00.000Z`));

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export const formatPercent = (ratio: number | null): string => (ratio === null ? '—' : percent.format(ratio));
export const formatDecimal = (value: number | null): string => (value === null ? '—' : decimal.format(value));

/** "45s", "5m 12s", "2h 5m", "3d 4h": a wait to the nearest two units, short enough for a figure. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const whole = Math.round(seconds);
  const units: ReadonlyArray<[string, number]> = [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ];
  const largest = units.findIndex(([, size]) => whole >= size);
  // Under half a second rounds to "0s".
  const first = largest === -1 ? units.length - 1 : largest;
  const [bigName, bigSize] = units[first]!;
  const big = Math.floor(whole / bigSize);
  const next = units[first + 1];
  if (next === undefined) return `${big}${bigName}`;
  const small = Math.floor((whole % bigSize) / next[1]);
  return small === 0 ? `${big}${bigName}` : `${big}${bigName} ${small}${next[0]}`;
}
