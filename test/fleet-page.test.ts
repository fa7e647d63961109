// The fleet page (issue 9) in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core) against the
// fleet component on the real KCP: 100 Kymas whose states the test sets through the status subresource; the page
// must show every one correctly, filter, drill down into one, and follow a change live. A screenshot is kept in
// test-artifacts/.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma, KymaStatus } from '../shared/core/kyma.ts';
import { API_VERSION } from '../shared/core/vocabulary.ts';
import { startFleetService, type FleetService } from '../components/fleet/service.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { installCrds } from '../local/controlplane/crds.ts';
import { createLogger } from '../shared/host/logger.ts';
import { clusters } from './clusters.ts';

const namespace = `fleet-page-${Date.now().toString(36)}`;
const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Kyma i's state: 60 Ready, 20 Processing, 10 Error, 10 Warning. */
const stateOf = (i: number): NonNullable<KymaStatus['state']> =>
  (['Ready', 'Ready', 'Ready', 'Ready', 'Ready', 'Ready', 'Processing', 'Processing', 'Error', 'Warning'] as const)[
    i % 10
  ] ?? 'Ready';
const nameOf = (i: number) => `page-${String(i).padStart(3, '0')}`;

let kcp: KubeClient;
let fleet: FleetService;
let browser: Browser;
let page: Page;

const status = (state: NonNullable<KymaStatus['state']>): KymaStatus => ({
  state,
  lastOperation: {
    operation: state === 'Ready' ? 'kyma is ready' : `module alpha: alpha is ${state}`,
    lastUpdateTime: new Date().toISOString(),
  },
  modules: [
    { name: 'alpha', version: '1.0.0', channel: 'regular', state },
    { name: 'beta', version: '2.0.0', channel: 'regular', state: 'Ready' },
  ],
});
const setStatus = (name: string, state: NonNullable<KymaStatus['state']>) =>
  kcp.apply<Kyma>(
    { apiVersion: API_VERSION, kind: 'Kyma', metadata: { name, namespace }, status: status(state) },
    'fleet-page-test',
    'status',
  );
const tableStates = () =>
  page.$$eval('#kymas tr', (rows) =>
    Object.fromEntries(rows.map((r) => [r.getAttribute('data-kyma'), r.children[1]?.textContent])),
  );
/** Waits until the page's JavaScript expression is true (the page's own globals; this file has no DOM types). */
const until = (expression: string, timeout = 10_000) => page.waitForFunction(expression, undefined, { timeout });
const shown = (text: string) => until(`document.querySelector('#shown')?.textContent === ${JSON.stringify(text)}`);
const countText = () => page.textContent('#kyma-counts');

beforeAll(async () => {
  const kc = clusters().kcp;
  await installCrds(kc);
  kcp = await KubeClient.from(kc);
  await kcp.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  for (let i = 0; i < 100; i++) {
    await kcp.apply(
      {
        apiVersion: API_VERSION,
        kind: 'Kyma',
        metadata: { name: nameOf(i), namespace },
        spec: { channel: 'regular', modules: [{ name: 'alpha' }, { name: 'beta' }] },
      },
      'fleet-page-test',
    );
    await setStatus(nameOf(i), stateOf(i));
  }
  fleet = await startFleetService(await KubeClient.from(kc), namespace, createLogger('fleet-page', 'warn'));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  page = await browser.newPage();
  await page.goto(fleet.url);
  await until("document.querySelectorAll('#kymas tr').length === 100", 30_000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await fleet?.close();
  await kcp?.delete({ apiVersion: 'v1', kind: 'Namespace', name: namespace });
});

describe('fleet page in headless Chromium', () => {
  it('shows the states of a 100-Kyma fleet correctly: counts and every row', async () => {
    expect(await countText()).toBe('Kymas: 100Ready 60Processing 20Error 10Warning 10');
    expect(await page.textContent('#module-counts')).toBe(
      'module installs: 200Ready 160Processing 20Error 10Warning 10',
    );
    const expected = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [nameOf(i), stateOf(i)]));
    expect(await tableStates()).toEqual(expected);
    expect(await page.textContent('#shown')).toBe('100 of 100 shown');
  });

  it('filters by state, by module state and by name', async () => {
    await page.selectOption('select[name=state]', 'Error');
    await shown('10 of 10 shown');
    expect(Object.values(await tableStates()).every((s) => s === 'Error')).toBe(true);
    await page.fill('input[name=module]', 'beta');
    await shown('0 of 0 shown');
    await page.selectOption('select[name=state]', 'Ready');
    await shown('100 of 100 shown');
    await page.selectOption('select[name=state]', '');
    await page.fill('input[name=module]', '');
    await page.fill('input[name=name]', 'page-04');
    await shown('10 of 10 shown');
    expect(Object.keys(await tableStates())).toEqual(Array.from({ length: 10 }, (_, i) => nameOf(40 + i)));
  });

  it('drills down into one Kyma: its reason chain', async () => {
    await page.click('tr[data-kyma="page-048"]');
    await until("document.querySelector('#detail')?.textContent?.startsWith('Kyma ')");
    const detail = (await page.textContent('#detail')) ?? '';
    expect(detail.split('\n').slice(0, 3)).toEqual([
      `Kyma ${namespace}/page-048: Error — module alpha: alpha is Error`,
      '  module alpha (channel regular): Error',
      '    Manifest: none',
    ]);
  });

  it('follows a change live, without a reload; a screenshot is kept', async () => {
    await page.fill('input[name=name]', '');
    await setStatus(nameOf(0), 'Error');
    await until("document.querySelector('#kyma-counts')?.textContent?.includes('Error 11')", 20_000);
    expect(await countText()).toBe('Kymas: 100Ready 59Processing 20Error 11Warning 10');
    await until("document.querySelector('tr[data-kyma=\"page-000\"]')?.children[1]?.textContent === 'Error'");
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'fleet-page.png'), fullPage: true });
  });
});
