// `npm run bench:profile -- --pid <pid>`: a CPU profile of a running Node process (a bench, `npm start`, a function)
// without restarting it, written as .cpuprofile (open it in Chrome DevTools or VS Code) and summarized: self time by
// function and by area of the code. Sampling costs the process a few percent while it runs.
import { writeFileSync } from 'node:fs';
import { profileProcess } from './inspector-profile.ts';
import { parseProfileArgs } from './profile-args.ts';
import { summarizeProfile, summaryText } from './profile-summary.ts';

const args = parseProfileArgs(process.argv.slice(2));
console.error(`[profile] sampling process ${args.pid} for ${args.seconds} s (every ${args.intervalUs} µs)`);
const profile = await profileProcess(args);
writeFileSync(args.out, JSON.stringify(profile));
console.error(`[profile] written to ${args.out}`);
console.log(summaryText(summarizeProfile(profile, args.top)));
