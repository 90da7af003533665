import { readdir, readFile } from 'node:fs/promises';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, type IContainer, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { EnvSchema } from '../../../src/config.ts';

/**
 * Issue 19: the Kubernetes manifests in deploy/k8s, validated against Kubernetes' own schemas
 * (the `kubernetes-models` package) and read for what the bot needs of them.
 */
const dir = new URL('../../../deploy/k8s/', import.meta.url);
const MODELS = { Deployment, Service, ConfigMap, Secret, PodDisruptionBudget } as const;
type Kind = keyof typeof MODELS;

interface Manifest {
  file: string;
  kind: string;
  apiVersion: string;
  metadata: { name: string };
  // biome-ignore lint/suspicious/noExplicitAny: a parsed document, checked field by field below
  [k: string]: any;
}

async function loadManifests(): Promise<Manifest[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
  const out: Manifest[] = [];
  for (const file of files) {
    for (const doc of parseAllDocuments(await readFile(new URL(file, dir), 'utf8'))) {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]?.message}`);
      out.push({ file, ...doc.toJS() } as Manifest);
    }
  }
  return out;
}

describe('deploy/k8s (issue 19)', async () => {
  const manifests = await loadManifests();
  const byName = (kind: string, name: string) => {
    const m = manifests.find((x) => x.kind === kind && x.metadata.name === name);
    if (!m) throw new Error(`no ${kind} ${name} in deploy/k8s`);
    return m;
  };
  const web = byName('Deployment', 'switchyard-web');
  const worker = byName('Deployment', 'switchyard-worker');
  const container = (d: Manifest): IContainer => d.spec.template.spec.containers[0];
  const envNames = (c: IContainer) => (c.env ?? []).map((e) => e.name);
  const known = new Set(Object.keys(EnvSchema.shape));

  it('every manifest is valid against its Kubernetes schema', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(6);
    for (const m of manifests) {
      const Model = MODELS[m.kind as Kind];
      expect(Model, `${m.file}: a ${m.kind} the test knows`).toBeDefined();
      const { file: _file, ...body } = m;
      expect(() => new Model(body as never).validate(), m.file).not.toThrow();
    }
  });

  it('the kustomization lists every manifest but the Secret template', async () => {
    const k = parseAllDocuments(await readFile(new URL('kustomization.yaml', dir), 'utf8'))[0]?.toJS() as {
      resources: string[];
    };
    const files = [...new Set(manifests.map((m) => m.file))].filter((f) => f !== 'secret.example.yaml');
    expect([...k.resources].sort()).toEqual(files.sort());
  });

  it('the web Deployment runs ROLE=web with liveness on /healthz and readiness on /readyz, behind the Service', () => {
    const c = container(web);
    expect(c.env).toContainEqual({ name: 'ROLE', value: 'web' });
    expect(c.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(c.readinessProbe?.httpGet?.path).toBe('/readyz');
    const svc = byName('Service', 'switchyard-web');
    expect(web.spec.template.metadata.labels).toMatchObject(svc.spec.selector);
    const port = c.ports?.find((p) => p.name === svc.spec.ports[0].targetPort);
    expect(port?.containerPort).toBe(3000);
    // The web half runs no repository code: the runtime's default seccomp profile, nothing lifted.
    expect(web.spec.template.spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(c.securityContext?.capabilities?.drop).toEqual(['ALL']);
  });

  it('the worker Deployment scales by replicas, probes its HEALTH_PORT, and has exactly the sandbox’s needs', () => {
    const c = container(worker);
    expect(worker.spec.replicas).toBeGreaterThan(1);
    expect(c.env).toContainEqual({ name: 'ROLE', value: 'worker' });
    const health = c.env?.find((e) => e.name === 'HEALTH_PORT')?.value;
    expect(c.ports?.map((p) => p.containerPort)).toEqual([Number(health)]);
    expect(c.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(c.readinessProbe?.httpGet?.path).toBe('/readyz');
    // bubblewrap's namespaces as an unprivileged user (R-H3): no capability, no privilege.
    expect(c.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      privileged: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'Unconfined' },
      appArmorProfile: { type: 'Unconfined' },
      procMount: 'Unmasked',
    });
    expect(c.securityContext?.capabilities?.add).toBeUndefined();
    expect(worker.spec.template.spec.hostUsers).toBe(false);
    expect(worker.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    // Checkouts on the pod's own disk, where WORKSPACE_DIR points.
    const config = byName('ConfigMap', 'switchyard-config');
    expect(c.volumeMounts?.map((v) => v.mountPath)).toContain(config.data.WORKSPACE_DIR);
  });

  it('every variable the manifests set is one the bot reads, and both halves get the config and secrets', () => {
    const config = byName('ConfigMap', 'switchyard-config');
    const secret = byName('Secret', 'switchyard-secrets');
    const set = [
      ...Object.keys(config.data),
      ...Object.keys(secret.stringData),
      ...envNames(container(web)),
      ...envNames(container(worker)),
    ];
    expect(set.filter((n) => !known.has(n))).toEqual([]);
    for (const d of [web, worker]) {
      expect(container(d).envFrom).toEqual([
        { configMapRef: { name: 'switchyard-config' } },
        { secretRef: { name: 'switchyard-secrets' } },
      ]);
    }
    // Secrets stay out of the ConfigMap.
    expect(Object.keys(config.data).filter((n) => /TOKEN|SECRET|_KEY$|PASSWORD|^REDIS_URL$/.test(n))).toEqual(
      [],
    );
  });

  it('the grace period outlasts SHUTDOWN_GRACE_MS, so a turn goes back to the queue before the kill', () => {
    const grace = Number(byName('ConfigMap', 'switchyard-config').data.SHUTDOWN_GRACE_MS);
    for (const d of [web, worker])
      expect(d.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(grace);
  });
});
