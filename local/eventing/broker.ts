// A local Knative Broker: HTTP ingress, Trigger filters, binary-mode delivery with Knative's retry rules,
// reply chaining with `knativebrokerttl` loop protection, and an in-memory dead-letter list.
import type { CloudEvent } from 'cloudevents';
import { setTimeout as delay } from 'node:timers/promises';
import { DeadLetterList, type DeadLetter } from './dead-letters.ts';
import {
  backoffMs,
  deliverInProcess,
  deliverOnce,
  type DeliveryOutcome,
  type InProcessSubscriber,
} from './delivery.ts';
import { attributesOf, coalesced, withExtension, withoutExtension } from './event-message.ts';
import { matchesAll } from './filters.ts';
import { startIngress, type Ingress } from './ingress.ts';
import { ConcurrencyLimiter } from './limiter.ts';
import { defaultLog, type EventingLog } from './log.ts';
import type { Trigger } from './triggers.ts';

export interface BrokerStats {
  /** Events accepted at the ingress, from producers and from replies. */
  readonly received: number;
  /** Deliveries a subscriber acknowledged (2xx, with or without a reply). */
  readonly delivered: number;
  readonly retries: number;
  readonly deadLettered: number;
  /** Events dropped because their `knativebrokerttl` ran out (a reply loop). */
  readonly droppedTtl: number;
  /** Reply events re-ingested into the broker. */
  readonly replies: number;
  /** Events that replaced a not yet started delivery of the same type, source and subject to the same Trigger. */
  readonly coalesced: number;
  /** `received` by CloudEvents type: which events a run's load is made of. */
  readonly receivedByType: Readonly<Record<string, number>>;
}

export interface LocalBrokerOptions {
  /** The Triggers of this broker; each matching Trigger gets its own delivery. */
  readonly triggers: readonly Trigger[];
  /** The subscriber URL of a Trigger (what Knative resolves from `spec.subscriber`). */
  readonly resolveSubscriber: (trigger: Trigger) => string;
  /** A Trigger's subscriber when it runs in this process: called directly instead of over HTTP (the local runner). */
  readonly inProcess?: (trigger: Trigger) => InProcessSubscriber | undefined;
  readonly log?: EventingLog;
  /** HTTP requests in flight at once per Trigger (default 32; a Trigger's max-in-flight annotation wins); the rest wait. */
  readonly maxConcurrentDeliveries?: number;
  /** HTTP requests in flight at once over all Triggers (default: no such limit). With a `rankOf` order, the lowest
   * rank across every Trigger goes first: the oldest Kyma's work in any function before a newer Kyma's. */
  readonly maxDeliveriesInFlight?: number;
  /** A newer event of the same type, source and subject replaces a delivery still waiting for a slot (default true). */
  readonly coalesce?: boolean;
  /** Dead letters kept in memory (default 1000; the oldest are forgotten first). */
  readonly maxDeadLetters?: number;
  /** Called with each dead letter (the local runner sends it to the Trigger's dead-letter sink, dead-letters.ts). */
  readonly onDeadLetter?: (letter: DeadLetter, trigger: Trigger) => void;
  /** The order in which a Trigger's waiting deliveries start: the lowest rank first, arrival order among equals
   * (default: every event ranks 0, i.e. arrival order). Knative's brokers have no such order; see ADR 25. */
  readonly rankOf?: (event: CloudEvent<unknown>) => number;
}

const TTL = 'knativebrokerttl';
const MAX_TTL = 255;

/** A delivery waiting for its Trigger's first free slot; a newer event about the same object takes its place. */
interface Waiting {
  event: CloudEvent<unknown>;
  ttl: number;
  rank: number;
}

export class LocalBroker {
  private readonly options: LocalBrokerOptions;
  private readonly log: EventingLog;
  /** One per Trigger: each dispatches on its own, as Knative's do, so one function's backlog never holds up another's. */
  private readonly limiters = new Map<string, ConcurrencyLimiter>();
  /** Over all Triggers, when maxDeliveriesInFlight is set. */
  private readonly total: ConcurrencyLimiter | undefined;
  private readonly letters: DeadLetterList;
  private readonly counters = {
    received: 0,
    delivered: 0,
    retries: 0,
    deadLettered: 0,
    droppedTtl: 0,
    replies: 0,
    coalesced: 0,
  };
  private readonly receivedByType = new Map<string, number>();
  /** Not yet started deliveries by Trigger, type, source and subject (ADR 17). */
  private readonly waiting = new Map<string, Waiting>();
  private readonly stopping = new AbortController();
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private ingress: Ingress | undefined;

  constructor(options: LocalBrokerOptions) {
    this.options = options;
    this.log = options.log ?? defaultLog('local-broker');
    this.letters = new DeadLetterList(options.maxDeadLetters ?? 1000);
    this.total = options.maxDeliveriesInFlight ? new ConcurrencyLimiter(options.maxDeliveriesInFlight) : undefined;
  }

  /** Starts the HTTP ingress (port 0 = a free port) and answers its URL. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    if (this.ingress) throw new Error('the broker is already started');
    this.ingress = await startIngress((event) => this.accept(event), port, host);
    return this.ingress.url;
  }

  get url(): string {
    if (!this.ingress) throw new Error('the broker is not started');
    return this.ingress.url;
  }

  /** For in-process producers (event sources): the same as a POST to the ingress; rejects once stopped. */
  async publish(event: CloudEvent<unknown>): Promise<void> {
    this.accept(event);
  }

  stats(): BrokerStats {
    return { ...this.counters, receivedByType: Object.fromEntries(this.receivedByType) };
  }

  deadLetters(): DeadLetter[] {
    return this.letters.list();
  }

  /** Resolves once no delivery is in flight, queued or waiting for a retry. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops the ingress; deliveries still waiting for a retry or a slot are dead-lettered ("the broker stopped"). */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.ingress?.close();
    await this.idle();
  }

  private accept(event: CloudEvent<unknown>): void {
    if (this.stopping.signal.aborted) throw new Error('the broker is stopped');
    const given = Number.parseInt(String(attributesOf(event)[TTL] ?? ''), 10);
    const ttl = Number.isNaN(given) ? MAX_TTL : given;
    this.ingest(withExtension(event, TTL, ttl), ttl);
  }

  private ingest(event: CloudEvent<unknown>, ttl: number): void {
    this.counters.received++;
    this.receivedByType.set(event.type, (this.receivedByType.get(event.type) ?? 0) + 1);
    if (ttl <= 0) {
      this.counters.droppedTtl++;
      this.log.warn(
        { eventId: event.id, type: event.type, source: event.source },
        'event dropped: knativebrokerttl exhausted (a reply loop?)',
      );
      return;
    }
    const attributes = attributesOf(event);
    for (const trigger of this.options.triggers) {
      if (matchesAll(trigger.filters, attributes)) this.track(this.deliver(trigger, withoutExtension(event, TTL), ttl));
    }
  }

  private track(delivery: Promise<void>): void {
    this.pending++;
    void delivery
      .catch((e: unknown) => this.log.error({ err: e }, 'delivery failed unexpectedly'))
      .finally(() => {
        this.pending--;
        if (this.pending > 0) return;
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const resolve of waiters) resolve();
      });
  }

  /** Delivers to one Trigger's subscriber with its retry policy; a reply goes back into the broker. Never rejects.
   * While it waits for its first slot, newer events of the same type, source and subject replace it (ADR 17). */
  private async deliver(trigger: Trigger, given: CloudEvent<unknown>, ttl: number): Promise<void> {
    const key =
      this.options.coalesce !== false && typeof given.subject === 'string' && given.subject
        ? `${trigger.name}\n${given.type}\n${given.source}\n${given.subject}`
        : undefined;
    const queued = key === undefined ? undefined : this.waiting.get(key);
    if (queued) {
      Object.assign(queued, { event: coalesced(queued.event, given), ttl });
      this.counters.coalesced++;
      return;
    }
    const latest: Waiting = { event: given, ttl, rank: this.options.rankOf?.(given) ?? 0 };
    if (key !== undefined) this.waiting.set(key, latest);
    const started = () => {
      if (key !== undefined && this.waiting.get(key) === latest) this.waiting.delete(key);
    };
    try {
      await this.attempt(trigger, latest, started);
    } finally {
      started();
    }
  }

  private async attempt(trigger: Trigger, latest: Waiting, started: () => void): Promise<void> {
    // The subscriber: a function of this process, its URL, or why there is none.
    const target = this.options.inProcess?.(trigger) ?? this.subscriberUrl(trigger);
    let outcome: DeliveryOutcome =
      typeof target === 'object' ? target : { kind: 'failed', retryable: false, error: 'not attempted' };
    let attempts = 0;
    while (typeof target !== 'object' && attempts <= trigger.delivery.retry && this.running()) {
      if (attempts > 0) await this.waitForRetry(backoffMs(trigger.delivery, attempts));
      if (!this.running()) break;
      attempts++;
      const once = () => {
        started();
        return typeof target === 'string'
          ? deliverOnce(target, latest.event, trigger.delivery.timeoutMs, this.stopping.signal)
          : deliverInProcess(target, latest.event, trigger.delivery.timeoutMs, this.stopping.signal);
      };
      outcome = await this.limiterOf(trigger).run(
        () => (this.total ? this.total.run(once, latest.rank) : once()),
        latest.rank,
      );
      if (outcome.kind !== 'failed') break;
      this.log.debug(
        {
          trigger: trigger.name,
          eventId: latest.event.id,
          attempt: attempts,
          status: outcome.status,
          error: outcome.error,
        },
        'delivery attempt failed',
      );
      if (!outcome.retryable) break;
    }
    if (outcome.kind === 'failed') return this.deadLetter(trigger, latest.event, outcome, attempts);
    this.counters.delivered++;
    if (outcome.kind === 'replied') {
      this.counters.replies++;
      this.ingest(withExtension(outcome.reply, TTL, latest.ttl - 1), latest.ttl - 1);
    }
  }

  private limiterOf(trigger: Trigger): ConcurrencyLimiter {
    const found = this.limiters.get(trigger.name);
    if (found) return found;
    const limiter = new ConcurrencyLimiter(trigger.maxInFlight ?? this.options.maxConcurrentDeliveries ?? 32);
    this.limiters.set(trigger.name, limiter);
    return limiter;
  }

  private subscriberUrl(trigger: Trigger): string | DeliveryOutcome {
    try {
      return new URL(this.options.resolveSubscriber(trigger)).href;
    } catch (e) {
      return { kind: 'failed', retryable: false, error: `no subscriber URL: ${(e as Error).message}` };
    }
  }

  private async waitForRetry(ms: number): Promise<void> {
    await delay(ms, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    if (this.running()) this.counters.retries++;
  }

  private running(): boolean {
    return !this.stopping.signal.aborted;
  }

  private deadLetter(
    trigger: Trigger,
    event: CloudEvent<unknown>,
    failure: Extract<DeliveryOutcome, { kind: 'failed' }>,
    attempts: number,
  ): void {
    const error = this.running() ? failure.error : `the broker stopped (last: ${failure.error})`;
    const letter: DeadLetter = {
      trigger: trigger.name,
      event,
      error,
      attempts,
      at: new Date(),
      ...(failure.status === undefined ? {} : { status: failure.status }),
    };
    this.counters.deadLettered++;
    this.letters.add(letter);
    this.options.onDeadLetter?.(letter, trigger);
    this.log.warn(
      {
        trigger: trigger.name,
        eventId: event.id,
        type: event.type,
        subject: event.subject,
        status: failure.status,
        attempts,
        error,
      },
      'event dead-lettered',
    );
  }
}
