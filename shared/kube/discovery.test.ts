import { describe, expect, it } from 'vitest';
import { Discovery } from './discovery.ts';
import { KubeApiError } from './errors.ts';

/** A server's discovery answers: the group versions it serves and their kinds, changeable between calls. */
function server(served: Record<string, string[]>) {
  const reads: string[] = [];
  const fetchList = async (path: string) => {
    reads.push(path);
    const kinds = served[path];
    if (!kinds) throw new KubeApiError(404, 'NotFound', `${path} not found`);
    return { resources: kinds.map((kind) => ({ name: `${kind.toLowerCase()}s`, kind, namespaced: true })) };
  };
  return { reads, fetchList, served };
}

describe('Discovery', () => {
  it('reads a group version once and serves its kinds from then on', async () => {
    const s = server({ '/apis/operator.kyma-project.io/v1beta2': ['Kyma'] });
    const d = new Discovery();
    expect(await d.resource('operator.kyma-project.io/v1beta2', 'Kyma', s.fetchList)).toEqual({
      base: '/apis/operator.kyma-project.io/v1beta2',
      plural: 'kymas',
      namespaced: true,
    });
    await d.resource('operator.kyma-project.io/v1beta2', 'Kyma', s.fetchList);
    expect(s.reads).toHaveLength(1);
  });

  it('reads a list read earlier again when a kind is missing from it (a CRD established since)', async () => {
    const s = server({ '/apis/operator.kyma-project.io/v1beta2': ['Kyma'] });
    const d = new Discovery();
    await d.resource('operator.kyma-project.io/v1beta2', 'Kyma', s.fetchList);
    s.served['/apis/operator.kyma-project.io/v1beta2'] = ['Kyma', 'Manifest'];
    expect((await d.resource('operator.kyma-project.io/v1beta2', 'Manifest', s.fetchList)).plural).toBe('manifests');
    expect(s.reads).toHaveLength(2);
  });

  it('does not read a list twice in one lookup: a group the server does not serve costs one request', async () => {
    const s = server({});
    const d = new Discovery();
    await expect(d.resource('operator.kyma-project.io/v1beta2', 'Kyma', s.fetchList)).rejects.toThrow(
      /no resource for kind Kyma/,
    );
    expect(s.reads).toHaveLength(1);
  });
});
