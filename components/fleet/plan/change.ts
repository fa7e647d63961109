// PURE. The hypothetical change a plan previews: a ModuleReleaseMeta (from a file, or an existing one with channels
// set) or a ModuleTemplate (from a file), put in place of the stored object — nothing else of the catalog changes.
import type { ModuleReleaseMeta, ModuleTemplate } from '../../../shared/core/templates.ts';
import { LABEL } from '../../../shared/core/vocabulary.ts';
import { InputError } from '../../../shared/host/input-rules.ts';

/** What the KCP holds that resolution reads, for one namespace. */
export interface Catalog {
  releaseMetas: ModuleReleaseMeta[];
  templates: ModuleTemplate[];
}

export type PlannedChange =
  { kind: 'ModuleReleaseMeta'; releaseMeta: ModuleReleaseMeta } | { kind: 'ModuleTemplate'; template: ModuleTemplate };

/** The MRM `name` of the catalog with each `channel=version` of `sets` put in (added when the channel is new). */
export function withChannels(
  catalog: Catalog,
  name: string,
  sets: readonly { channel: string; version: string }[],
): ModuleReleaseMeta {
  const stored = catalog.releaseMetas.find((m) => m.metadata.name === name);
  if (!stored)
    throw new InputError(`--release-meta ${name}: no such ModuleReleaseMeta in the namespace (a file path must exist)`);
  const channels = [...(stored.spec?.channels ?? [])];
  for (const set of sets) {
    const at = channels.findIndex((c) => c.channel === set.channel);
    if (at >= 0) channels[at] = { ...channels[at], ...set };
    else channels.push({ ...set });
  }
  return { ...stored, spec: { ...stored.spec, channels } } as ModuleReleaseMeta;
}

/** The catalog as it would be after the change: the changed object replaces the stored one of its name (or is added). */
export function changedCatalog(catalog: Catalog, change: PlannedChange): Catalog {
  if (change.kind === 'ModuleReleaseMeta') {
    const name = change.releaseMeta.metadata.name;
    return {
      ...catalog,
      releaseMetas: [...catalog.releaseMetas.filter((m) => m.metadata.name !== name), change.releaseMeta],
    };
  }
  const name = change.template.metadata.name;
  return { ...catalog, templates: [...catalog.templates.filter((t) => t.metadata.name !== name), change.template] };
}

/** The module names a change is about (its Kymas are the ones to plan). */
export function changedModules(change: PlannedChange): string[] {
  if (change.kind === 'ModuleReleaseMeta')
    return [change.releaseMeta.spec?.moduleName || change.releaseMeta.metadata.name];
  const t = change.template;
  return [
    t.spec?.moduleName || t.metadata.labels?.[LABEL.moduleName] || t.metadata.name.replace(/-\d+\.\d+\.\d+.*$/, ''),
  ];
}

/** PURE. A parsed YAML document as the change: a ModuleReleaseMeta or a ModuleTemplate, else an InputError. */
export function changeOfDocument(doc: unknown, file: string): PlannedChange {
  const object = doc as { kind?: unknown; metadata?: { name?: unknown } } | null;
  if (!object || typeof object !== 'object' || typeof object.metadata?.name !== 'string')
    throw new InputError(`${file}: expected one ModuleReleaseMeta or ModuleTemplate with metadata.name`);
  if (object.kind === 'ModuleReleaseMeta')
    return { kind: 'ModuleReleaseMeta', releaseMeta: object as ModuleReleaseMeta };
  if (object.kind === 'ModuleTemplate') return { kind: 'ModuleTemplate', template: object as ModuleTemplate };
  throw new InputError(`${file}: kind ${String(object.kind)}: expected ModuleReleaseMeta or ModuleTemplate`);
}

export interface ChannelSet {
  channel: string;
  version: string;
}

/** What the caller asked to preview: a changed object from a file, or an existing ModuleReleaseMeta with channels set. */
export type ChangeRequest =
  { document: unknown; file: string } | { releaseMeta: string; setChannels: readonly ChannelSet[] };

/** PURE. The change a request means against the stored catalog. */
export function changeOf(catalog: Catalog, request: ChangeRequest): PlannedChange {
  if ('document' in request) return changeOfDocument(request.document, request.file);
  return { kind: 'ModuleReleaseMeta', releaseMeta: withChannels(catalog, request.releaseMeta, request.setChannels) };
}

/** PURE. One line naming the change: `ModuleReleaseMeta papa: regular=2.0.0 fast=2.1.0`, `ModuleTemplate papa-2.0.0`. */
export function describeChange(change: PlannedChange): string {
  if (change.kind === 'ModuleTemplate') return `ModuleTemplate ${change.template.metadata.name}`;
  const meta = change.releaseMeta;
  const channels = (meta.spec?.channels ?? []).map((c) => `${c.channel}=${c.version}`).join(' ');
  return `ModuleReleaseMeta ${meta.metadata.name}: ${meta.spec?.mandatory?.version ? `mandatory=${meta.spec.mandatory.version} ` : ''}${channels}`.trim();
}
