// A WATCH answers one JSON line per event, in chunks cut anywhere. A runtime's API server is untrusted input: a line
// that never ends must not fill the process's memory (one event is one object, which etcd bounds far below this).

/** The longest line a WATCH may send, in characters. */
export const MAX_WATCH_LINE_CHARS = 16 * 2 ** 20;

/** PURE. The lines of a WATCH's text as its chunks arrive (blank lines dropped). */
export class WatchLines {
  private pending = '';
  private readonly most: number;

  constructor(most = MAX_WATCH_LINE_CHARS) {
    this.most = most;
  }

  /** The lines `text` completes; undefined once an unfinished line is longer than the bound (the stream must end). */
  take(text: string): string[] | undefined {
    let lines: string[] = [];
    // A chunk inside a long line is only appended: the line so far is not searched again.
    if (text.includes('\n')) {
      lines = `${this.pending}${text}`.split('\n');
      this.pending = lines.pop() ?? '';
    } else this.pending += text;
    if (this.pending.length > this.most) return undefined;
    return lines.filter((line) => line.trim() !== '');
  }
}
