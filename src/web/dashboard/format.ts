/** Accra time, as partners read it on every dashboard page. */
export const accraTime = (d: Date | string) =>
  new Date(d).toLocaleString('en-GB', {
    timeZone: 'Africa/Accra',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
