// What a world produces that an operator or attacker could see, kept for test/secret-hygiene.test.ts: every log line
// of the functions, the broker and the sources (all levels, whatever the console shows), and the status of every
// object version the ApiServerSource delivered. Files in the run's hygiene directory, one set per world.
import type { CloudEvent } from 'cloudevents';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { inject } from 'vitest';
import { createLogger, type Logger } from '../../shared/host/logger.ts';

let worlds = 0;
const fileOf = (kind: string) =>
  join(inject('controlPlane').hygieneDir, `${kind}-${process.pid}-${Date.now()}-${++worlds}.jsonl`);

/** A logger writing every line to the hygiene directory (`file`) and lines of `consoleLevel` and above to stdout. */
export function capturingLogger(name: string, consoleLevel: string): { log: Logger; file: string } {
  const path = fileOf('log');
  const file = pino.destination({ dest: path, sync: true });
  const streams: pino.StreamEntry[] = [{ level: 'trace', stream: file }];
  if (consoleLevel !== 'silent') streams.push({ level: consoleLevel as pino.Level, stream: process.stdout });
  return { log: createLogger(name, 'trace', pino.multistream(streams)), file: path };
}

/** Records the status of each object an ApiServerSource event carries. */
export function statusRecorder(): (event: CloudEvent<unknown>) => void {
  const file = fileOf('status');
  return (event) => {
    const object = event.data as { kind?: string; metadata?: { name?: string }; status?: unknown } | undefined;
    if (object?.status !== undefined)
      appendFileSync(
        file,
        `${JSON.stringify({ kind: object.kind, name: object.metadata?.name, status: object.status })}\n`,
      );
  };
}
