import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/** What an event source logs through (the resource watch, the local eventing); a pino logger fits. */
export interface EventLog {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Paths pino blanks in every log line (kubeconfigs, tokens, registry credentials, Secret data): a second line of
 * defence, as messages are built without them. */
export const REDACT_PATHS = [
  'kubeconfig',
  '*.kubeconfig',
  'token',
  '*.token',
  'password',
  '*.password',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'data.config',
  '*.data',
  'stringData',
  '*.stringData',
  'credentials',
  '*.credentials',
];

export function createLogger(name: string, level = 'info', destination?: DestinationStream): Logger {
  const options = { name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { fn: name } };
  return destination ? pino(options, destination) : pino(options);
}
