/** Child-process entry of sandbox-env.ts: start a filled sandbox, report its address, answer timing requests, stop on "close". */
import { startInProcess, type ChildRequest, type SandboxRequest } from './sandbox-env.js';

const req = JSON.parse(process.argv[2] ?? '{}') as SandboxRequest;
const sb = await startInProcess(req);
process.send?.({ url: sb.url, origin: sb.origin, token: sb.token });
const stop = async (): Promise<void> => {
  await sb.close();
  process.exit(0);
};
process.on('message', (m: ChildRequest) => {
  if (m === 'close') void stop();
  else if (m === 'timing') process.send?.({ timing: sb.timingNow() });
  else if (m === 'reset-timing') {
    sb.reset();
    process.send?.({ timing: sb.timingNow() });
  }
});
process.on('disconnect', () => void stop());
