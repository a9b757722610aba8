import { useNow } from './shared-clock';

const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

const STEPS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/** "3 minutes ago", "yesterday"… */
export function fromNow(iso: string, now = Date.now()): string {
  let amount = (Date.parse(iso) - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return unit === 'second' && Math.abs(amount) < 45 ? 'just now' : relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return absolute.format(new Date(iso));
}

/** A moment as a date and time (or `relative`: how long ago), with the exact time on hover. */
export function DateTime({ iso, relative: asRelative = false }: { iso: string | null; relative?: boolean }) {
  if (iso === null) return <span className="muted">never</span>;
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={absolute.format(date)}>
      {asRelative ? <FromNow iso={iso} /> : absolute.format(date)}
    </time>
  );
}

/** A table cell of a moment; `label` names its column on phones, where rows become cards. */
export function DateCell({
  label,
  iso,
  relative: asRelative = false,
  className,
}: {
  label: string;
  iso: string | null;
  relative?: boolean;
  className?: string;
}) {
  return (
    <td data-label={label} className={className}>
      <DateTime iso={iso} relative={asRelative} />
    </td>
  );
}

/** How long ago, moving on with the dashboard's clock. */
function FromNow({ iso }: { iso: string }) {
  return fromNow(iso, useNow());
}
