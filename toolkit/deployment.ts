// Where `npm run deploy` keeps what the tool needs to reach the deployed worker (C42): its address
// and the operator token a first deploy made, in `.forms/deployment.json` (git-ignored), readable
// by this user only. `forms --url` sends the token only to the address it was made for.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEPLOYMENT_FILE = join('.forms', 'deployment.json');

export type Deployment = { token: string; url?: string };

export function readDeployment(dir = process.cwd()): Deployment | undefined {
  const path = join(dir, DEPLOYMENT_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as Partial<Deployment>;
    if (typeof saved.token !== 'string' || saved.token === '') return undefined;
    return { token: saved.token, ...(typeof saved.url === 'string' ? { url: saved.url } : {}) };
  } catch {
    return undefined;
  }
}

export function saveDeployment(deployment: Deployment, dir = process.cwd()): void {
  const folder = join(dir, '.forms');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(dir, DEPLOYMENT_FILE);
  writeFileSync(path, `${JSON.stringify(deployment, null, 2)}\n`, { mode: 0o600 });
  // A file that was already there keeps its old mode through writeFileSync.
  chmodSync(path, 0o600);
}

/** The saved token, if it was made for the worker at `origin`. */
export function savedToken(origin: string, dir = process.cwd()): string | undefined {
  const saved = readDeployment(dir);
  if (saved?.url === undefined) return undefined;
  try {
    return new URL(saved.url).origin === origin ? saved.token : undefined;
  } catch {
    return undefined;
  }
}
