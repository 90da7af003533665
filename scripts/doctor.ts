import { doctorCli } from '../src/doctor/doctor-cli.ts';

/** `npm run doctor` (issue 12): the doctor on this process's environment and streams. */
const code = await doctorCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exit(code);
