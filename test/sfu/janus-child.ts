/**
 * A process that starts a local Janus and prints its pid, for the test that
 * kills this process with SIGKILL and expects Janus to go with it.
 */
import { testJanus } from './support.ts';

const janus = testJanus();
await janus.start();
console.log(`janus ${janus.pid}`);
setInterval(() => {}, 1000);
