// C27, C35, C37: the `send_email` binding stood in for, recording each message the worker gives it.
import { env } from 'cloudflare:workers';
import type { NotificationEmail } from '../src/delivery/mail.ts';

/** The worker's environment with an email binding that records what it sends. */
export function recording() {
  const sent: NotificationEmail[] = [];
  const binding = {
    send: async (message: NotificationEmail) => {
      sent.push(message);
      return { messageId: `m${sent.length}` };
    },
  } as unknown as SendEmail;
  return { sent, env: { ...env, EMAIL: binding } as Env };
}
