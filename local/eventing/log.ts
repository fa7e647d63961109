import { pino } from 'pino';
import type { EventLog } from '../../shared/host/logger.ts';

/** The logging the eventing runtime needs; a pino logger fits. */
export type EventingLog = EventLog;

/** Warnings and errors as JSON lines on stderr (pino), for callers that pass no logger. */
export function defaultLog(name: string): EventingLog {
  return pino({ name, level: 'warn' }, pino.destination(2));
}
