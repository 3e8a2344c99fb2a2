// Secrets for the command-line tool never come as arguments: a command line is kept in the shell's
// history and in npm's own log of the run. They come from an environment variable, or from
// standard input: typed at a prompt that does not echo them, or piped in.
import type { Readable, Writable } from 'node:stream';

export type SecretSource = {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stderr: Writable;
  env: Record<string, string | undefined>;
};

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** One line typed at a terminal, not echoed (raw mode: the terminal shows nothing of it). */
function prompt(source: SecretSource, question: string): Promise<string> {
  return new Promise((resolve) => {
    source.stderr.write(question);
    source.stdin.setRawMode?.(true);
    source.stdin.resume();
    let typed = '';
    const onData = (data: Buffer) => {
      for (const ch of String(data)) {
        if (ch === '\r' || ch === '\n') {
          source.stdin.setRawMode?.(false);
          source.stdin.off('data', onData);
          source.stdin.pause();
          source.stderr.write('\n');
          resolve(typed);
          return;
        }
        if (ch === '\u0003') {
          source.stdin.setRawMode?.(false);
          process.exit(130); // Ctrl-C
        }
        typed = ch === '\u007f' ? typed.slice(0, -1) : typed + ch;
      }
    };
    source.stdin.on('data', onData);
  });
}

/**
 * The secret named `variable` in the environment, else from standard input (a prompt at a terminal,
 * else everything piped in, without its final newline).
 */
export async function readSecret(source: SecretSource, variable: string, what: string): Promise<string> {
  const fromEnv = source.env[variable];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv.trim();
  if (source.stdin.isTTY) return (await prompt(source, `${what} (not shown as you type): `)).trim();
  return (await readAll(source.stdin)).replace(/\r?\n$/, '').trim();
}
