/** The four artifact kinds (R-G1), each a `<name>.<kind>.md` file in a folder of its kind. */
export const ARTIFACT_KINDS = ['role', 'skill', 'workflow', 'crew'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** The folder each kind lives in, in the repository and in a project's `.fleet/`. */
export const KIND_FOLDERS: Readonly<Record<ArtifactKind, string>> = {
  role: 'roles',
  skill: 'skills',
  workflow: 'workflows',
  crew: 'crews',
};

/** R-G2 tiers, lowest first: a higher tier's artifact shadows a lower one of the same name. */
export const TIERS = ['bundled', 'team', 'project'] as const;
export type Tier = (typeof TIERS)[number];

/** R-G4 permission profiles of an executor; only `worker` may change the repository. */
export const PROFILES = ['worker', 'reviewer', 'explorer'] as const;
export type Profile = (typeof PROFILES)[number];

/** R-G4 topologies: which communication tools exist. */
export const TOPOLOGIES = ['silent', 'hub', 'mesh'] as const;
export type Topology = (typeof TOPOLOGIES)[number];

interface Common {
  name: string;
  description?: string;
  /** Markdown after the front matter, normalised. */
  body: string;
  /** Where it came from, for errors and the registry view: `roles/worker.role.md`, `.fleet/…`. */
  file: string;
}

/** A persona for an executor, its permission profile and the skills it asks for. */
export interface Role extends Common {
  kind: 'role';
  profile: Profile;
  skills: string[];
}

/** Knowledge and instructions; never tools (R-G4). */
export interface SkillArtifact extends Common {
  kind: 'skill';
}

/** Stages and guidance for an executor. */
export interface Workflow extends Common {
  kind: 'workflow';
  stages: string[];
}

/** An executor role, the skills it brings, a topology and a workflow. */
export interface Crew extends Common {
  kind: 'crew';
  role: string;
  skills: string[];
  topology: Topology;
  workflow?: string;
}

export type Artifact = Role | SkillArtifact | Workflow | Crew;
export type ArtifactOf<K extends ArtifactKind> = Extract<Artifact, { kind: K }>;

/** Why a file was refused or a reference did not resolve; `line` is 1-based in the file. */
export interface ArtifactProblem {
  file: string;
  line?: number;
  code:
    | 'front_matter'
    | 'unknown_key'
    | 'invalid_value'
    | 'name_mismatch'
    | 'reserved_block'
    | 'reserved_name'
    | 'unresolved'
    | 'unreadable';
  message: string;
}

/** A problem as one line a person can act on: `file:line: message`. */
export const problemText = (p: ArtifactProblem): string =>
  `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`;
