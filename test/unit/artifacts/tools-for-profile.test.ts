import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolsForProfile } from '../../../src/artifacts/tools-for-profile.ts';
import { type AnyTool, defineTool, toolOk } from '../../../src/session/tool.ts';

const EXECUTOR_TOOLS = [
  'reply',
  'report',
  'handback',
  'orchestrator_thread_unrelated',
  'list_files',
  'read_file',
  'search_files',
  'write_file',
  'edit_file',
  'run_command',
  'record_verification',
  'commit_and_push',
  'screenshot',
  'open_pr',
  'mark_pr_ready',
  'close_pr',
  'resolve_review_thread',
  'message_peer',
];

const tools: AnyTool[] = EXECUTOR_TOOLS.map((name) =>
  defineTool({ name, description: name, parameters: z.object({}), run: () => toolOk('') }),
);
const names = (list: AnyTool[]) => list.map((t) => t.name);
const WRITE = [
  'write_file',
  'edit_file',
  'commit_and_push',
  'open_pr',
  'mark_pr_ready',
  'close_pr',
  'resolve_review_thread',
];

describe('capabilities come from code (R-G4)', () => {
  it('R-G4: a worker holds every work tool', () => {
    expect(names(toolsForProfile('worker', tools, 'hub'))).toEqual(
      EXECUTOR_TOOLS.filter((n) => n !== 'message_peer'),
    );
  });

  it('R-G4: reviewer and explorer have no tool that edits, commits, pushes or changes a PR', () => {
    const reviewer = names(toolsForProfile('reviewer', tools, 'hub'));
    const explorer = names(toolsForProfile('explorer', tools, 'hub'));
    for (const w of [...WRITE, 'screenshot']) {
      expect(reviewer).not.toContain(w);
      expect(explorer).not.toContain(w);
    }
    expect(reviewer).toEqual(
      expect.arrayContaining(['read_file', 'run_command', 'record_verification', 'reply']),
    );
    expect(explorer).toEqual([
      'reply',
      'report',
      'handback',
      'orchestrator_thread_unrelated',
      'list_files',
      'read_file',
      'search_files',
    ]);
  });

  it('R-G4: a tool unknown to the profiles stays out of read-only profiles (allow-list)', () => {
    const extra = defineTool({
      name: 'deploy',
      description: '',
      parameters: z.object({}),
      run: () => toolOk(''),
    });
    expect(names(toolsForProfile('reviewer', [extra], 'mesh'))).toEqual([]);
    expect(names(toolsForProfile('worker', [extra], 'mesh'))).toEqual(['deploy']);
  });

  it('R-G4: hub hands back to the main session; mesh also messages peers; silent has no agent communication but still reports to the host (issue 15)', () => {
    const comm = (t: 'silent' | 'hub' | 'mesh') =>
      names(toolsForProfile('worker', tools, t)).filter((n) =>
        ['report', 'handback', 'message_peer'].includes(n),
      );
    expect(comm('hub')).toEqual(['report', 'handback']);
    expect(comm('mesh')).toEqual(['report', 'handback', 'message_peer']);
    expect(comm('silent')).toEqual(['report']);
    expect(names(toolsForProfile('explorer', tools, 'silent'))).toEqual(
      expect.arrayContaining(['reply', 'report']),
    );
  });
});
