import type { AnyTool } from '../session/tool.ts';
import type { Profile, Topology } from './artifact.ts';

/**
 * Reading the checkout, the ticket's original sources (R-H6) and the prompt revisions its session
 * worked under (R-F3): every profile.
 */
const READ = [
  'list_files',
  'read_file',
  'search_files',
  'read_card',
  'read_github',
  'read_chat',
  'read_prompt_revision',
];
/** Running commands (tests, builds) without the bot's credentials: reviewers verify what they read. */
const RUN = ['run_command', 'record_verification'];
/**
 * Answering people, leaving a thread, and telling the host where the ticket stands (with a
 * question for a person, R-C5): every profile and topology (R-C2, R-C4). `report` goes to the
 * host, not to another agent, so a silent crew still asks and says it is done.
 */
const PEOPLE = ['reply', 'orchestrator_thread_unrelated', 'report'];
/** Communication with other agents, decided by topology alone (R-G4). */
const TO_MAIN = ['handback'];
const TO_PEERS = ['message_peer'];

/**
 * R-G4: what each permission profile may hold. An allow-list, so a tool added later (another
 * write tool) stays out of the read-only profiles until someone decides otherwise. `worker` holds
 * everything, file edits, commits, pushes and PR changes included.
 */
const ALLOWED: Record<Exclude<Profile, 'worker'>, ReadonlySet<string>> = {
  reviewer: new Set([...PEOPLE, ...TO_MAIN, ...TO_PEERS, ...READ, ...RUN]),
  explorer: new Set([...PEOPLE, ...TO_MAIN, ...TO_PEERS, ...READ]),
};

/** R-G4 topology: `silent` no agent communication, `hub` the main session, `mesh` also peers. */
const CHANNELS: Record<Topology, ReadonlySet<string>> = {
  silent: new Set(),
  hub: new Set(TO_MAIN),
  mesh: new Set([...TO_MAIN, ...TO_PEERS]),
};

const COMMUNICATION = new Set([...TO_MAIN, ...TO_PEERS]);

/**
 * The tools an executor is offered, decided by code from its profile and topology (R-G4), never
 * by what its role or skills say. A tool left out is absent: a forged call to it is answered
 * "unknown tool" by the agent loop and runs nothing.
 */
export function toolsForProfile(profile: Profile, tools: readonly AnyTool[], topology: Topology): AnyTool[] {
  return tools.filter((t) => {
    if (profile !== 'worker' && !ALLOWED[profile].has(t.name)) return false;
    return !COMMUNICATION.has(t.name) || CHANNELS[topology].has(t.name);
  });
}
