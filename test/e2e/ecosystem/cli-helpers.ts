import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));

/** Node args that run the CLI from source; `development` resolves @pith/sdk to its TypeScript source. */
export const NODE_ARGS = ['--conditions=development', '--import', 'tsx', CLI];

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `pith …` as a child process. `env` replaces the inherited variables it names; undefined deletes one. */
export function pith(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
  delete childEnv.ALLOW_PRIVATE_TARGETS;
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  return new Promise((resolve) => {
    execFile(process.execPath, [...NODE_ARGS, ...args], { env: childEnv, timeout: 110_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
