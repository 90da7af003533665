import type { ModelUsage } from '../model-reply.ts';
import type { CallSummary } from './call-summary.ts';
import type { Excerpt } from './excerpt.ts';

/**
 * One entry of a ticket's trajectory (issue 17), in the order things happened. `at` and `ms` are
 * missing for steps stored before step records existed: their transcript still shows them.
 */
export type TrajectoryStep =
  | { kind: 'turn'; session: string; at?: number; turnId?: string; input: Excerpt }
  | {
      kind: 'model';
      session: string;
      at?: number;
      ms?: number;
      model?: string;
      revision?: number;
      usage?: ModelUsage;
      text: Excerpt | null;
      /** Characters of the model's reasoning (DeepSeek `reasoning_content`, Anthropic thinking). */
      reasoningChars: number;
      calls: string[];
    }
  | ({
      kind: 'tool';
      session: string;
      at?: number;
      ms?: number;
      name: string;
      callKey: string;
      /** false: the tool refused (or the call could not run) and nothing happened outside. */
      ok: boolean;
      result: Excerpt;
    } & CallSummary)
  | {
      kind: 'compaction';
      session: string;
      at: number;
      compactions: number;
      summarisedBefore: number;
      elidedBefore: number;
    }
  /** Issue 28: a note the host gave the model inside a turn (an answer cut at the output cap). */
  | { kind: 'note'; session: string; at: number; note: string; text: Excerpt }
  | { kind: 'end'; session: string; at: number; outcome: string; detail?: string }
  | { kind: 'pause' | 'resume'; at: number; by: string; via: string; detail?: string };
