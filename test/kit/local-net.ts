// The product's own helpers (`npm start` and `npm run demo` use them too), kept here for the tests.
export { freePort } from '../../src/net/free-port.ts';
export { redisAnswersAt } from '../../src/store/local-redis-server.ts';
