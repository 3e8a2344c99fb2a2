// C32: the operator token of `npm run dev`, kept in the git-ignored `.dev.vars` (where wrangler dev
// reads a worker's secrets), made once: 32 random bytes, base64url. It is never printed.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken, TOKEN_LENGTH } from '../src/lib/hex.ts';

export const DEV_VARS = '.dev.vars';

/** The value of `name` in `.dev.vars` (`NAME=value` lines), if there is one. */
export function devVar(name: string, dir = process.cwd()): string | undefined {
  const path = join(dir, DEV_VARS);
  if (!existsSync(path)) return undefined;
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*"?([^"]*)"?\s*$/.exec(line);
    if (match?.[1] === name) return match[2];
  }
  return undefined;
}

/**
 * Makes ADMIN_TOKEN in `.dev.vars` unless one long enough is there (a short one is replaced; the
 * file's other lines are kept). Returns whether it made one.
 */
export function ensureAdminToken(dir = process.cwd()): boolean {
  const current = devVar('ADMIN_TOKEN', dir);
  if (current !== undefined && current.length >= TOKEN_LENGTH) return false;
  const path = join(dir, DEV_VARS);
  const kept = existsSync(path)
    ? readFileSync(path, 'utf8')
        .split(/\r?\n/)
        .filter((line) => line.trim() !== '' && !/^\s*ADMIN_TOKEN\s*=/.test(line))
    : [];
  const token = randomToken();
  const text = `${[...kept, `ADMIN_TOKEN=${token}`].join('\n')}\n`;
  try {
    // Made only if absent: two `npm run dev` started at once keep the one token the first made.
    writeFileSync(path, text, { mode: 0o600, flag: kept.length === 0 && !existsSync(path) ? 'wx' : 'w' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return ensureAdminToken(dir);
    throw error;
  }
  chmodSync(path, 0o600);
  return true;
}
