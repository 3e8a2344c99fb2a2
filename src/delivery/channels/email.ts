// C27: the notification email of an accepted submission to an address (C37: one that agreed),
// through the `send_email` binding (C47: or the owner's provider). Email not set up, or the
// binding's refusal, is retried; a provider's answer is read as C47 says.
import { sendNotification } from '../mail.ts';
import type { MailChannel } from './channel.ts';

export const email = {
  family: 'notification',
  name: 'Email',
  send: (d, ctx) => sendNotification(ctx.email, d, ctx),
} satisfies MailChannel;
