// The shipped PrometheusRule as the monitoring tests read it (manifests/components/monitoring/prometheus-rule.yaml).
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

export interface Rule {
  alert: string;
  expr: string;
  for?: string;
}
export interface RuleSpec {
  groups: { name: string; rules: Rule[] }[];
}

const RULE = new URL('../../manifests/components/monitoring/prometheus-rule.yaml', import.meta.url);

/** The resource's kind and its `spec` (a Prometheus rule file). */
export async function readRule(): Promise<{ kind: string; spec: RuleSpec }> {
  return parse(await readFile(RULE, 'utf8')) as { kind: string; spec: RuleSpec };
}
