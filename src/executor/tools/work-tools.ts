import type { AnyTool } from '../../session/tool.ts';
import type { TurnScope } from '../turn-scope.ts';
import { closePrTool } from './close-pr-tool.ts';
import { recordVerificationTool, runCommandTool } from './command-tools.ts';
import { commitAndPushTool } from './commit-tool.ts';
import { editFileTool } from './edit-file-tool.ts';
import { listFilesTool } from './list-files-tool.ts';
import { markPrReadyTool, openPrTool } from './pr-tools.ts';
import { readFileTool } from './read-file-tool.ts';
import { resolveReviewThreadTool } from './review-tools.ts';
import { screenshotTool } from './screenshot-tool.ts';
import { searchFilesTool } from './search-files-tool.ts';
import { writeFileTool } from './write-file-tool.ts';

/**
 * The executor's work tools: the checkout, commands, commits and the PR flow. Each refuses until
 * the turn's requests are acknowledged or handed back (R-C2).
 */
export function workTools(scope: TurnScope): AnyTool[] {
  return [
    listFilesTool(scope),
    readFileTool(scope),
    searchFilesTool(scope),
    writeFileTool(scope),
    editFileTool(scope),
    runCommandTool(scope),
    recordVerificationTool(scope),
    commitAndPushTool(scope),
    screenshotTool(scope),
    openPrTool(scope),
    markPrReadyTool(scope),
    closePrTool(scope),
    resolveReviewThreadTool(scope),
  ];
}
