/** A whole-number option of a bench's command line, `least` or more (and at most `most` when given); anything else,
 * a missing value included, is refused with the option's name, the range and what was given. */
export function wholeFlag(name: string, text: string | undefined, least: number, most?: number): number {
  const n = Number(text);
  if (text === undefined || !Number.isInteger(n) || n < least || (most !== undefined && n > most)) {
    const range = most === undefined ? `≥ ${least}` : `from ${least} to ${most}`;
    throw new Error(`--${name} must be a whole number ${range}, not ${text ?? 'missing'}`);
  }
  return n;
}
