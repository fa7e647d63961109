import { describe, expect, it } from 'vitest';
import { readConfig } from './config.ts';

describe('readConfig', () => {
  it('starts the embedded control plane with one runtime when nothing is set', () => {
    expect(readConfig({})).toMatchObject({
      kubeconfigPath: undefined,
      embeddedRuntimes: 1,
      logLevel: 'info',
      kcpNamespace: 'kcp-system',
      port: 8080,
    });
  });

  it('installs into the control plane itself only when LIFECYCLE_IN_CLUSTER=true; anything but true/false is refused', () => {
    expect(readConfig({}).inCluster).toBe(false);
    expect(readConfig({ LIFECYCLE_IN_CLUSTER: 'true' }).inCluster).toBe(true);
    expect(() => readConfig({ LIFECYCLE_IN_CLUSTER: 'yes' })).toThrow(/LIFECYCLE_IN_CLUSTER must be true or false/);
  });

  it('watches a rollout 2 s in the call unless LIFECYCLE_ROLLOUT_WATCH_SECONDS says otherwise (0 = never)', () => {
    expect(readConfig({}).rolloutWatchMs).toBe(2000);
    expect(readConfig({ LIFECYCLE_ROLLOUT_WATCH_SECONDS: '0' }).rolloutWatchMs).toBe(0);
    expect(() => readConfig({ LIFECYCLE_ROLLOUT_WATCH_SECONDS: '61' })).toThrow(/LIFECYCLE_ROLLOUT_WATCH_SECONDS/);
  });

  it('uses KUBECONFIG when set', () => {
    expect(readConfig({ KUBECONFIG: '/tmp/kcp.yaml' }).kubeconfigPath).toBe('/tmp/kcp.yaml');
  });

  it.each(['-1', '2.5', 'many', '21'])('rejects LIFECYCLE_EMBEDDED_RUNTIMES=%s with a clear message', (value) => {
    expect(() => readConfig({ LIFECYCLE_EMBEDDED_RUNTIMES: value })).toThrow(
      /LIFECYCLE_EMBEDDED_RUNTIMES must be an integer from 0 to 20/,
    );
  });
});

describe('registry configuration', () => {
  it.each([
    ['http://127.0.0.1:5000', { base: '127.0.0.1:5000', plainHttp: true }],
    ['registry.example.net/modules/', { base: 'registry.example.net/modules', plainHttp: false }],
    ['https://registry.example.net', { base: 'registry.example.net', plainHttp: false }],
  ])('reads LIFECYCLE_OCI_REGISTRY=%s', (value, expected) => {
    expect(readConfig({ LIFECYCLE_OCI_REGISTRY: value }).registry).toEqual({ ...expected, allowlist: [] });
  });

  it('reads the registry allowlist: hosts, trimmed and lower-cased', () => {
    expect(
      readConfig({ LIFECYCLE_OCI_REGISTRY_ALLOWLIST: ' Mirror.example.net ,127.0.0.1:5000,' }).registry.allowlist,
    ).toEqual(['mirror.example.net', '127.0.0.1:5000']);
  });

  it.each(['https://mirror.example.net', 'mirror.example.net/path', 'bad host', 'host:port'])(
    'refuses %s in the allowlist, naming the variable',
    (value) => {
      expect(() => readConfig({ LIFECYCLE_OCI_REGISTRY_ALLOWLIST: value })).toThrow(
        /LIFECYCLE_OCI_REGISTRY_ALLOWLIST must list registry hosts/,
      );
    },
  );
});

describe('exec credential plugins of kubeconfigs from other hands (ADR 31, issue 34)', () => {
  it('reads commands with their exact arguments and the env names; none by default', () => {
    expect(readConfig({}).kubeconfigExecCommands).toEqual({ plugins: [], env: [] });
    expect(
      readConfig({
        LIFECYCLE_KUBECONFIG_EXEC_COMMANDS:
          '/usr/local/bin/gke-gcloud-auth-plugin, kubelogin get-token --login azurecli,',
        LIFECYCLE_KUBECONFIG_EXEC_ENV: ' AZURE_CONFIG_DIR ,HOME',
      }).kubeconfigExecCommands,
    ).toEqual({
      plugins: [
        { command: '/usr/local/bin/gke-gcloud-auth-plugin', args: [] },
        { command: 'kubelogin', args: ['get-token', '--login', 'azurecli'] },
      ],
      env: ['AZURE_CONFIG_DIR', 'HOME'],
    });
  });

  it('refuses arguments not separated by single spaces and env entries that are no variable names, naming the variable', () => {
    expect(() => readConfig({ LIFECYCLE_KUBECONFIG_EXEC_COMMANDS: 'kubelogin get-token  --login azurecli' })).toThrow(
      /LIFECYCLE_KUBECONFIG_EXEC_COMMANDS must list commands.*single spaces/,
    );
    expect(() => readConfig({ LIFECYCLE_KUBECONFIG_EXEC_ENV: 'BASH_ENV=x' })).toThrow(
      /LIFECYCLE_KUBECONFIG_EXEC_ENV must list environment variable names/,
    );
  });
});

describe('OpenTelemetry trace export and trace links (ADR 59, issue 37)', () => {
  it('is off by default and on with an OTLP endpoint; the traces path is added to the base endpoint', () => {
    expect(readConfig({}).traces).toBeUndefined();
    expect(readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).traces).toEqual({
      url: 'http://collector:4318/v1/traces',
      serviceName: undefined,
      scheduleDelayMs: 5000,
    });
    const own = readConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
      OTEL_SERVICE_NAME: 'lifecycle',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    }).traces;
    expect(own).toEqual({ url: 'https://traces.example/otlp', serviceName: 'lifecycle', scheduleDelayMs: 200 });
  });

  it('stays off when disabled, refuses exporters it has not and URLs it cannot use without echoing them', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(readConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }).traces).toBeUndefined();
    expect(readConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).traces).toBeUndefined();
    expect(() => readConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/must be otlp or none/);
    const bad = 'ftp://user:secret@collector';
    expect(() => readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: bad })).toThrow(/must be an http\(s\) URL/);
    expect(() => readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: bad })).not.toThrow(/secret/);
  });

  it('takes a trace link template holding {traceId}', () => {
    expect(readConfig({}).traceUrl).toBeUndefined();
    const template = 'https://jaeger.example/trace/{traceId}';
    expect(readConfig({ LIFECYCLE_TRACE_URL: template }).traceUrl).toBe(template);
    expect(() => readConfig({ LIFECYCLE_TRACE_URL: 'https://jaeger.example/trace/' })).toThrow(/holding \{traceId\}/);
  });
});
