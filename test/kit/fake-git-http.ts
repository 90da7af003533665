// Git over smart HTTP lives with the demo's local GitHub (`npm run demo`); the fake GitHub serves the same.
export {
  basicToken,
  type GitAccess,
  type GitAuthVerdict,
  type GitRoute,
  gitRoute,
  serveGit,
} from '../../src/demo/git-http.ts';
