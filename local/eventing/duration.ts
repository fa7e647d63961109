// ISO-8601 durations as Knative's DeliverySpec writes them (`PT0.2S`, `PT1S`, `PT2M`, `P1DT2H`). Pure.

const ISO_DURATION =
  /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const UNIT_MS = [7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000];

/** Milliseconds of an ISO-8601 duration; years and months (no fixed length) are rejected. */
export function parseIsoDuration(text: string): number {
  const match = ISO_DURATION.exec(text.trim().toUpperCase());
  if (!match || text.trim().toUpperCase().endsWith('T') || match.slice(1).every((part) => part === undefined)) {
    throw new Error(`"${text}" is not an ISO-8601 duration like PT0.2S, PT1S, PT2M or P1D`);
  }
  const ms = match
    .slice(1)
    .reduce((total, part, i) => total + (part === undefined ? 0 : Number(part) * (UNIT_MS[i] ?? 0)), 0);
  return Math.round(ms);
}
