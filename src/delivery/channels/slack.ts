// C36: a submission as a Slack message, posted to a channel's incoming webhook: Block Kit's plain
// text, which Slack never reads for mentions, links or formatting. A hook deleted (404, 410)
// disables the target.
import { cut, link, type Message, oneLine, plainLines, textOf } from '../chat-text.ts';
import { chatHook, type HookChannel } from './channel.ts';

// Slack (https://api.slack.com/reference/block-kit/blocks): at most 50 blocks; a header's plain
// text at most 150 characters, a section's 3,000. Plain text is never read for mentions, links or
// formatting, so no escaping is needed there; `&`, `<` and `>` are escaped where Slack reads text.
const SLACK_BLOCKS = 50;
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const plain = (text: string) => ({ type: 'plain_text', text, emoji: false });

export function slackMessage(m: Message, publicUrl?: string): string {
  const fields = Object.entries(JSON.parse(m.data) as Record<string, unknown>);
  const room = SLACK_BLOCKS - 3;
  const shown = fields.length > room ? fields.slice(0, room - 1) : fields;
  const title = cut(oneLine(`New submission: ${m.projectName}`), 150);
  const blocks: unknown[] = [
    { type: 'header', text: plain(title) },
    ...shown.map(([name, value]) => ({
      type: 'section',
      text: plain(cut(`${oneLine(name)}\n${plainLines(textOf(value))}`, 3000)),
    })),
  ];
  if (shown.length < fields.length) {
    blocks.push({
      type: 'section',
      text: plain(`${fields.length - shown.length} more fields are not shown`),
    });
  }
  const url = link(publicUrl, m);
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: `${slackEscape(m.receivedAt)}${url === undefined ? '' : ` · <${slackEscape(url)}|Open it in the dashboard>`}`,
      },
    ],
  });
  return JSON.stringify({ text: slackEscape(title), blocks });
}

export const slack: HookChannel = chatHook(
  {
    name: 'Slack',
    hosts: ['hooks.slack.com'],
    path: /^\/services\/[^/]+\/[^/]+\/[^/]+$/,
    example: 'https://hooks.slack.com/services/T…/B…/…',
  },
  {
    label: 'Slack incoming webhook',
    example: 'https://hooks.slack.com/services/…',
    message: slackMessage,
    test: (projectName) => {
      const text = `A test message from edge-forms for ${projectName}`;
      return JSON.stringify({ text: slackEscape(text), blocks: [{ type: 'section', text: plain(text) }] });
    },
  },
);
