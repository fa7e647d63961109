import { pino } from 'pino';

/** The logging the eventing runtime needs; a pino logger fits. */
export interface EventingLog {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Warnings and errors as JSON lines on stderr (pino), for callers that pass no logger. */
export function defaultLog(name: string): EventingLog {
  return pino({ name, level: 'warn' }, pino.destination(2));
}
