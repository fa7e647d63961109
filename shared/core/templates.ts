import type { ManagerRef, Resource } from './objects.ts';

export interface ModuleTemplateSpec {
  moduleName?: string;
  version?: string;
  channel?: string;
  mandatory?: boolean;
  requiresDowntime?: boolean;
  data?: Record<string, unknown> & {
    apiVersion?: string;
    kind?: string;
    metadata?: { name?: string; namespace?: string };
  };
  descriptor?: Record<string, unknown>;
  manager?: ManagerRef;
}

export type ModuleTemplate = Resource<ModuleTemplateSpec>;

export interface ModuleReleaseMetaSpec {
  moduleName: string;
  ocmComponentName: string;
  channels?: { channel: string; version: string }[];
  mandatory?: { version: string };
  kymaSelector?: LabelSelector;
}

/** A Kubernetes label selector (metav1.LabelSelector). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export type ModuleReleaseMeta = Resource<ModuleReleaseMetaSpec>;

export const templateName = (moduleName: string, version: string) => `${moduleName}-${version}`;
