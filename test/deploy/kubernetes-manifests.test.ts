import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from '../helpers/run-seatflow.js';

// deploy/kubernetes as `kubectl apply -k` sends it: each object checked against the Kubernetes API's own schemas
// (kubernetes-models, generated from the Kubernetes OpenAPI document, installed by npm ci: nothing is fetched here),
// then each container against the hardening a cluster's restricted Pod Security Standard asks for, and more.
const dir = path.join(ROOT, 'deploy/kubernetes');
const kustomization = parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as { resources: string[]; images?: { name: string; newName?: string; newTag?: string }[] };
const objects = kustomization.resources.flatMap((file) =>
  parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((doc) => ({ file, object: doc.toJS() as { apiVersion: string; kind: string; metadata: { name: string } } })),
);
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'apps/v1 StatefulSet': StatefulSet,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'v1 Service': Service,
};

interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  privileged?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type?: string };
}
interface Container {
  name: string;
  image: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: SecurityContext;
}
interface Workload {
  kind: string;
  metadata: { name: string };
  spec: { template: { spec: { securityContext?: SecurityContext; containers: Container[]; initContainers?: Container[] } } };
}
const workloads = objects.map(({ object }) => object).filter((object): object is Workload & typeof object => object.kind === 'Deployment' || object.kind === 'StatefulSet');
const containers = workloads.flatMap((workload) => {
  const pod = workload.spec.template.spec;
  return [...pod.containers, ...(pod.initContainers ?? [])].map((container) => ({ where: `${workload.metadata.name}/${container.name}`, pod: pod.securityContext ?? {}, container }));
});

describe('deploy/kubernetes', () => {
  it('holds the objects the kustomization names, each of a kind these checks know', () => {
    expect(objects.map(({ object }) => `${object.kind}/${object.metadata.name}`)).toEqual([
      'Secret/seatflow',
      'ConfigMap/seatflow',
      'StatefulSet/seatflow-redis',
      'Service/seatflow-redis',
      'Deployment/seatflow-worker',
      'Deployment/seatflow-serve',
      'Service/seatflow-serve',
    ]);
    for (const { object } of objects) expect(MODELS[`${object.apiVersion} ${object.kind}`], `${object.apiVersion} ${object.kind}`).toBeDefined();
  });

  it('validates every object against the Kubernetes schemas', () => {
    const invalid: string[] = [];
    for (const { file, object } of objects) {
      const Model = MODELS[`${object.apiVersion} ${object.kind}`]!;
      try {
        new Model(object as never).validate();
      } catch (error) {
        invalid.push(`${file} ${object.kind}/${object.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(invalid).toEqual([]);
  });

  it('gives every container CPU and memory requests and limits', () => {
    for (const { where, container } of containers) {
      for (const kind of ['requests', 'limits'] as const) expect(Object.keys(container.resources?.[kind] ?? {}).sort(), `${where} resources.${kind}`).toEqual(['cpu', 'memory']);
    }
  });

  it('runs every container non-root, read-only, without privilege escalation or capabilities, under RuntimeDefault seccomp', () => {
    expect(containers.map(({ where }) => where)).toEqual(['seatflow-redis/redis', 'seatflow-worker/worker', 'seatflow-serve/serve']);
    for (const { where, pod, container } of containers) {
      const context = { ...pod, ...container.securityContext };
      expect(context.runAsNonRoot, `${where} runAsNonRoot`).toBe(true);
      // runAsNonRoot alone refuses an image whose user is a name: a numeric user other than root lets it start.
      expect(context.runAsUser, `${where} runAsUser`).toBeGreaterThan(0);
      expect(container.securityContext?.allowPrivilegeEscalation, `${where} allowPrivilegeEscalation`).toBe(false);
      expect(container.securityContext?.readOnlyRootFilesystem, `${where} readOnlyRootFilesystem`).toBe(true);
      expect(container.securityContext?.privileged ?? false, `${where} privileged`).toBe(false);
      expect(container.securityContext?.capabilities?.drop, `${where} capabilities.drop`).toEqual(['ALL']);
      expect(container.securityContext?.capabilities?.add ?? [], `${where} capabilities.add`).toEqual([]);
      expect(context.seccompProfile?.type, `${where} seccompProfile`).toBe('RuntimeDefault');
    }
  });

  it("names seatflow's image through the kustomization, where a placeholder registry stands until the operator sets theirs", () => {
    const seatflow = containers.filter(({ container }) => !container.image.startsWith('redis:'));
    expect(seatflow.map(({ container }) => container.image)).toEqual(['seatflow', 'seatflow']);
    expect(kustomization.images).toEqual([{ name: 'seatflow', newName: 'registry.example.com/seatflow', newTag: expect.stringMatching(/^\d+\.\d+\.\d+$/) }]);
    for (const { container } of containers) expect(container.image).not.toMatch(/:latest$/);
  });
});
