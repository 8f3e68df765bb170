// How times, durations and token counts read on the page.

// One formatter of each kind: a long chain formats a thousand times, and building a formatter per
// call (as Date.toLocaleString does) costs more than the rest of a row.
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const number = new Intl.NumberFormat();
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A time as "3 minutes ago"; the exact time is the title. */
export function ago(iso, now = Date.now()) {
  if (!iso) {
    return '—';
  }
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const units = [
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) {
      return relative.format(Math.round(seconds / size), unit);
    }
  }
  return relative.format(seconds, 'second');
}

/** A time in the reader's locale. */
export function when(iso) {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

/** A duration in milliseconds as "850 ms", "4.2 s" or "3 min 5 s". */
export function duration(ms) {
  if (ms == null) {
    return '—';
  }
  if (ms < 1000) {
    return `${ms} ms`;
  }
  if (ms < 60_000) {
    return `${(ms / 1000).toFixed(1)} s`;
  }
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A count of tokens, or a dash for none. */
export function tokens(count) {
  return count == null ? '—' : number.format(count);
}

/** Spend as "in / out / total" tokens. */
export function spend(usage) {
  if (!usage) {
    return '—';
  }
  return `${tokens(usage.inputTokens)} in · ${tokens(usage.outputTokens)} out · ${tokens(totalOf(usage))} total`;
}

/** The total tokens of a usage, added up when the model reported no total. */
export function totalOf(usage) {
  if (!usage) {
    return null;
  }
  if (usage.totalTokens != null) {
    return usage.totalTokens;
  }
  if (usage.inputTokens == null && usage.outputTokens == null) {
    return null;
  }
  return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}
