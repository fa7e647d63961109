import { describe, expect, it } from 'vitest';
import { schemaOf, unknownFields, type Schema } from './schema-fields.ts';

const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        broker: { type: 'string' },
        filters: { type: 'array', items: { type: 'object', properties: { exact: { type: 'object' } } } },
      },
    },
    labels: { type: 'object', additionalProperties: { type: 'object', properties: { a: { type: 'string' } } } },
  },
};

describe('unknownFields', () => {
  it('names misspelt fields at any depth, in lists and maps', () => {
    expect(
      unknownFields(schema, {
        spec: { brokr: 'x', filters: [{ exact: { anything: 'goes' } }, { exactt: {} }] },
        labels: { k: { b: 1 } },
      }),
    ).toEqual(['spec.brokr', 'spec.filters[1].exactt', 'labels.k.b']);
  });
  it('accepts declared fields, free-form objects, metadata and status', () => {
    expect(
      unknownFields(schema, {
        metadata: { x: 1 },
        status: { y: 2 },
        spec: { broker: 'b', filters: [{ exact: { type: 't' } }] },
        labels: { k: { a: 's' } },
      }),
    ).toEqual([]);
  });
  it('finds the schema of a kind among CRDs by group, kind and version', () => {
    const crds = [
      {
        kind: 'CustomResourceDefinition',
        spec: {
          group: 'eventing.knative.dev',
          names: { kind: 'Trigger' },
          versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }],
        },
      },
    ];
    expect(schemaOf(crds, 'eventing.knative.dev/v1', 'Trigger')).toBe(schema);
    expect(schemaOf(crds, 'eventing.knative.dev/v1beta1', 'Trigger')).toBeUndefined();
  });
});
