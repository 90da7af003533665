import type { AnyTool } from '../../session/tool.ts';
import type { TurnScope } from '../turn-scope.ts';
import { closePrTool } from './close-pr-tool.ts';
import { recordVerificationTool, runCommandTool } from './command-tools.ts';
import { commitAndPushTool } from './commit-tool.ts';
import { markPrReadyTool, openPrTool } from './pr-tools.ts';
import { resolveReviewThreadTool } from './review-tools.ts';
import { screenshotTool } from './screenshot-tool.ts';
import {
  editFileTool,
  listFilesTool,
  readFileTool,
  searchFilesTool,
  writeFileTool,
} from './workspace-tools.ts';

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
