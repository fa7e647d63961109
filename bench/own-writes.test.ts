import { describe, expect, it } from 'vitest';
import { KCP_CONTROLLERS, ownRequests, ownWatches, ownWrites } from './own-writes.ts';

describe('ownWrites', () => {
  it('counts our applies, creates and deletes, not the controllers rolling the module out', () => {
    expect(
      ownWrites({
        'apply deployments.apps': 10,
        'apply customresourcedefinitions.apiextensions.k8s.io': 5,
        'post samples.sample.modules.kyma-project.io': 2,
        'apply kymas.operator.kyma-project.io/status': 3,
        'delete configmaps': 1,
        'put deployments.apps/status': 40,
        'post pods': 7,
        'post pods/binding': 7,
        'put replicasets.apps/status': 9,
        'post events': 4,
        'put leases.coordination.k8s.io': 30,
        'patch nodes/status': 2,
        'get kymas.operator.kyma-project.io': 100,
      }),
    ).toBe(21);
  });
});

describe('ownRequests', () => {
  it("counts every verb but the controllers' resources; on the KCP only leases are someone else's", () => {
    const counts = {
      'get deployments.apps': 20,
      'list kymas.operator.kyma-project.io': 2,
      'apply deployments.apps': 10,
      'get pods': 50,
      'put leases.coordination.k8s.io': 30,
      'post events': 4,
      'get /openapi/v3': 1,
    };
    expect(ownRequests(counts)).toBe(33);
    expect(ownRequests(counts, KCP_CONTROLLERS)).toBe(87);
    expect(ownWrites(counts, KCP_CONTROLLERS)).toBe(14);
  });
});

describe('ownWatches', () => {
  it("counts our WATCHes, not the controllers' nor other verbs", () => {
    expect(
      ownWatches({
        'watch kymas.operator.kyma-project.io': 12,
        'watch deployments.apps': 3,
        'watch pods': 40,
        'get kymas.operator.kyma-project.io': 100,
      }),
    ).toBe(15);
  });
});
