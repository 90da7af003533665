import type { TurnScope } from '../executor/turn-scope.ts';
import type { AnyTool } from '../session/tool.ts';
import { messagePeerTool } from './message-peer-tool.ts';
import { toolsForProfile } from './tools-for-profile.ts';

/**
 * An executor's tools for this turn (R-G4): the executor's full list plus `message_peer`, cut to
 * the turn's permission profile and topology. A turn without resolved artifacts runs as a
 * `worker` in a `hub`, as before crews existed.
 */
export function scopedTools(scope: TurnScope, tools: readonly AnyTool[]): AnyTool[] {
  const profile = scope.artifacts?.role.profile ?? 'worker';
  const topology = scope.artifacts?.topology ?? 'hub';
  return toolsForProfile(profile, [...tools, messagePeerTool(scope)], topology);
}
