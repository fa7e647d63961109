import { describe, expect, it } from 'vitest';
import { APISERVER_ADD, APISERVER_UPDATE, RESYNC_DUE } from '../host/events.ts';
import { OwnWrites } from './own-writes.ts';

const object = (resourceVersion: string, name = 'm1', uid = 'u1') => ({
  metadata: { name, namespace: 'kcp-system', uid, resourceVersion },
});
const event = (resourceVersion: string, type = APISERVER_UPDATE) => ({
  id: 'e',
  type,
  source: 's',
  specversion: '1.0',
  data: object(resourceVersion),
});

describe('OwnWrites', () => {
  it('knows the update events about versions its guarded writes produced, and nothing else', () => {
    const own = new OwnWrites();
    own.remember(object('11'));
    own.remember(object('12'));
    expect(own.isEcho(event('11'), object('12')), 'the finalizer write before the status write').toBe(true);
    expect(own.isEcho(event('12'), object('12'))).toBe(true);
    expect(own.isEcho(event('13'), object('13')), 'a change by anyone else').toBe(false);
    expect(own.isEcho(event('10'), object('12')), 'the change our call started from').toBe(false);
    expect(own.isEcho(event('12', APISERVER_ADD), object('12')), 'not an update').toBe(false);
    expect(
      own.isEcho({ ...event('12', RESYNC_DUE), data: undefined, resourceversion: '12' }, object('12')),
      'a resync is always work',
    ).toBe(false);
    expect(own.isEcho(event('12'), object('12', 'm1', 'u2')), 'a re-created object of the same name').toBe(false);
    expect(own.isEcho(event('12'), object('12', 'm2')), 'another object').toBe(false);
  });

  it('takes an event the local broker coalesced for an echo only when every version it stands for is its own', () => {
    const own = new OwnWrites();
    own.remember(object('11'));
    own.remember(object('14'));
    const standingFor = (versions: string) => ({ ...event('14'), coalescedversions: versions });
    expect(own.isEcho(standingFor('11 14'), object('14')), 'two own writes').toBe(true);
    expect(own.isEcho(standingFor('12 14'), object('14')), 'a write by anyone else, then ours').toBe(false);
    expect(own.isEcho(standingFor('? 14'), object('14')), 'an event that named no version').toBe(false);
    expect(own.isEcho(standingFor(''), object('14')), 'an empty extension: the event itself').toBe(true);
    expect(own.isEcho(standingFor('12 14'), object('14'), 'newest'), 'only the newest asked for').toBe(true);
    const newestForeign = { ...event('15'), coalescedversions: '11 15' };
    expect(own.isEcho(newestForeign, object('15'), 'newest'), "the newest someone else's").toBe(false);
  });

  it('keeps a few versions per object and a bounded number of objects', () => {
    const own = new OwnWrites(2);
    for (const v of ['1', '2', '3', '4', '5']) own.remember(object(v));
    expect(own.isEcho(event('1'), object('5')), 'older than the last four').toBe(false);
    expect(own.isEcho(event('2'), object('5'))).toBe(true);
    own.remember(object('7', 'm2'));
    own.remember(object('8', 'm3'));
    expect(own.isEcho(event('5'), object('5')), 'the least recently written object is forgotten first').toBe(false);
    expect(own.isEcho({ ...event('8'), data: object('8', 'm3') }, object('8', 'm3'))).toBe(true);
  });

  it('tells its listener of every version it remembers, not of answers without one', () => {
    const told: string[] = [];
    const own = new OwnWrites(undefined, (w) => told.push(`${w.metadata.name}@${w.metadata.resourceVersion}`));
    own.remember(object('11'));
    own.remember({ metadata: { name: 'm2' } });
    own.remember(object('12', 'm3'));
    expect(told).toEqual(['m1@11', 'm3@12']);
  });
});
