import type { ArtifactKind, ArtifactOf, Tier } from './artifact.ts';
import type { Layer } from './load-layer.ts';

/** The artifact a name resolves to, the tier it came from, and the lower tiers it shadowed. */
export interface Winner<K extends ArtifactKind = ArtifactKind> {
  artifact: ArtifactOf<K>;
  tier: Tier;
  shadowed: Tier[];
}

export type Resolution = { [K in ArtifactKind]: Map<string, Winner<K>> };

/**
 * R-G2: resolves every name across layers given lowest tier first; a higher tier's artifact of
 * the same kind and name wins, and the winner remembers which tiers it shadowed.
 */
export function resolveLayers(layers: readonly Pick<Layer, 'tier' | 'artifacts'>[]): Resolution {
  const out: Resolution = { role: new Map(), skill: new Map(), workflow: new Map(), crew: new Map() };
  for (const layer of layers) {
    for (const artifact of layer.artifacts) {
      const map = out[artifact.kind] as Map<string, Winner>;
      const below = map.get(artifact.name);
      map.set(artifact.name, {
        artifact,
        tier: layer.tier,
        shadowed: below ? [...below.shadowed, below.tier] : [],
      });
    }
  }
  return out;
}

/** The winner of one kind and name, typed by kind. */
export const winnerOf = <K extends ArtifactKind>(r: Resolution, kind: K, name: string) =>
  r[kind].get(name) as Winner<K> | undefined;
