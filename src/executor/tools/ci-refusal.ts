/** How many CI files a refusal names before it says how many more. */
const SHOWN = 10;

const list = (files: readonly string[]) =>
  files.length > SHOWN
    ? `${files.slice(0, SHOWN).join(', ')} and ${files.length - SHOWN} more`
    : files.join(', ');

/**
 * Issue 31: why `commit_and_push` left CI configuration alone, and what the executor may do: leave
 * the files out, or have the requester ask for the change. `committed`: the change is already in
 * commits not yet pushed (made before, or with `run_command`), which must be rewritten.
 */
export function ciRefusal(repo: string, files: readonly string[], committed: boolean): string {
  const what = committed
    ? `refused, nothing pushed: commits not yet pushed change CI configuration (${list(files)})`
    : `refused, nothing committed or pushed: these changes touch CI configuration (${list(files)})`;
  const fix = committed
    ? 'Rewrite those commits so they leave these files as they were (run_command: `git reset --soft` to the last pushed commit or the base, then restore the files), and commit_and_push again.'
    : 'Leave them out: restore these files (run_command: `git checkout HEAD -- <file>`; delete a file that is new) and commit_and_push again.';
  return [
    `${what}. A CI change is pushed only when a person with admin permission on ${repo} asked for it in this ticket's request, naming the file or its folder (CI_CONFIG_PATHS).`,
    fix,
    'If the work needs the change, say so in your report and ask the requester with human_action to request it.',
  ].join(' ');
}
