// The local eventing runtime: what Knative Eventing does, for the embedded deployment and for e2e tests.
export { LocalBroker, type BrokerStats, type LocalBrokerOptions } from './broker.ts';
export type { DeadLetter } from './dead-letters.ts';
export { backoffMs, isRetryableStatus, type DeliveryOutcome } from './delivery.ts';
export { matches, matchesAll, type EventAttributes, type EventFilter } from './filters.ts';
export { parseAttributesFilter, parseFilters } from './filter-spec.ts';
export {
  DEFAULT_DELIVERY,
  loadTriggers,
  parseTriggers,
  type DeliveryOptions,
  type SubscriberRef,
  type Trigger,
} from './triggers.ts';
export { parseIsoDuration } from './duration.ts';
export {
  LocalApiServerSource,
  apiServerSourcesOf,
  labelSelectorText,
  parseApiServerSources,
  type LocalApiServerSourceOptions,
  type WatchedResource,
} from './apiserver-source.ts';
export { apiServerEvent, guessPlural, selfLink, type ResourceChange } from '../../shared/kube/apiserver-events.ts';
export {
  LocalPingSource,
  cronMatches,
  parseCron,
  parsePingSources,
  pingEvent,
  pingSourcesOf,
  type CronSchedule,
  type LocalPingSourceOptions,
  type PingSourceSpec,
} from './ping-source.ts';
export type { EventSink } from '../../shared/host/sink.ts';
export type { EventingLog } from './log.ts';
