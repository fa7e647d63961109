import { spawn } from 'node:child_process';

/** What a script run to its end printed and how it exited. */
export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a repository script (`bench/start-up.ts`) with this Node, as its npm script would, and waits for its end. */
export function runScript(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ScriptRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
