/**
 * A process that queues one executor turn (`scheduleTurn`) and exits — the fault test
 * `turn-queue-kill.test.ts` kills it between two of its Redis commands. Its connection goes
 * through the test's proxy; `ECHO go` marks where the scheduling begins.
 */
import { scheduleTurn } from '../../src/executor/schedule-turn.ts';
import { createKeys } from '../../src/store/keys.ts';
import { createQueues } from '../../src/store/queues.ts';
import { connectRedis } from '../../src/store/redis.ts';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const redis = connectRedis(env('REDIS_URL'));
const keys = createKeys(env('KEY_PREFIX'));
const queues = createQueues(redis, keys.queuePrefix);
// Every queue's own start-up writes done first: only the scheduling's commands are counted.
await Promise.all(Object.values(queues).map((q) => q.waitUntilReady()));
await redis.echo('go');
await scheduleTurn({ redis, keys, queues }, env('TICKET'));
process.stdout.write('scheduled\n');
process.exit(0);
