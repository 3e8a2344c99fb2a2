// C35: one mailbox is one mailbox for the caps; a value a stranger typed never becomes a link in a
// confirmation. Links are judged by linkify-it (markdown-it's linkifier, which finds URLs, bare
// domains and addresses as mail clients do), a recogniser we did not write.
import fc from 'fast-check';
import { LinkifyIt } from 'linkify-it';
import { describe, expect, it } from 'vitest';
import { cutShort, defangLinks } from '../../src/lib/links.ts';
import { mailboxOf } from '../../src/lib/mailbox.ts';

const linkify = new LinkifyIt({ fuzzyIP: true, fuzzyEmail: true, fuzzyLink: true });

describe('C35: one mailbox, however it is spelled', () => {
  it.each([
    ['X@GMAIL.COM', 'x@gmail.com'],
    ['x+1@gmail.com', 'x@gmail.com'],
    ['x.y@gmail.com', 'xy@gmail.com'],
    ['X.Y+news@GoogleMail.com', 'xy@gmail.com'],
    ['a.b_c-d+x@protonmail.ch', 'abcd@proton.me'],
    ['someone@me.com', 'someone@icloud.com'],
    ['first.last+tag@example.com', 'first.last@example.com'],
    ['Ada@Example.COM.', 'ada@example.com'],
    ['ｘ@gmail.com', 'x@gmail.com'],
  ])('C35: %s is the mailbox %s', (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });

  it('C35 (property): every spelling of a Gmail box counts as the box; other domains keep their dots', () => {
    const local = fc.stringMatching(/^[a-z0-9]{1,12}$/);
    fc.assert(
      fc.property(
        local,
        fc.array(fc.nat(12), { maxLength: 4 }),
        fc.boolean(),
        fc.string(),
        (box, dots, alias, tag) => {
          let spelled = box;
          for (const at of dots) spelled = `${spelled.slice(0, at)}.${spelled.slice(at)}`;
          spelled = spelled.replace(/^\.+|\.+$/g, '').replace(/\.{2,}/g, '.') || box;
          const plus = tag.includes('@') ? '' : `+${tag}`;
          const address = `${spelled.toUpperCase()}${plus}@${alias ? 'GoogleMail.com' : 'gmail.com'}`;
          expect(mailboxOf(address)).toBe(`${box}@gmail.com`);
          expect(mailboxOf(`${spelled}@example.org`)).toBe(`${spelled}@example.org`);
        },
      ),
    );
  });
});

describe('C35: nothing a stranger typed becomes a link', () => {
  it.each([
    ['https://evil.example/x?y=1', 'https[:]//evil[.]example/x?y=1'],
    ['visit www.evil.example now', 'visit www[.]evil[.]example now'],
    ['bit.ly/abc', 'bit[.]ly/abc'],
    ['mail me: a@evil.example', 'mail me: a@evil[.]example'],
    ['mailto:a@evil.example', 'mailto[:]a@evil[.]example'],
    ['http://192.168.1.1:8080/', 'http[:]//192[.]168[.]1[.]1:8080/'],
    ['evil。example', 'evil[.]example'],
    ['xn--80ak6aa92e.com', 'xn--80ak6aa92e[.]com'],
    ['Ada Lovelace, 3.14 and -1.5 kg (2.5%), €9.99', 'Ada Lovelace, 3.14 and -1.5 kg (2.5%), €9.99'],
    ['version 1.2.3', 'version 1[.]2[.]3'],
    ['e.g. a.a.aa', 'e[.]g. a[.]a[.]aa'],
    // Found by the property below: a number-like host after a URL's slashes.
    ['http://$0.0?a.a@a.aa', 'http[:]//$0[.]0?a[.]a@a[.]aa'],
  ])('C35: %s is shown as %s', (value, shown) => {
    expect(defangLinks(value)).toBe(shown);
    expect(linkify.test(defangLinks(value))).toBe(false);
  });

  it('C35 (property): no text built of links, domains, addresses and anything else is linked once defanged', () => {
    const piece = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.domain(),
      fc.emailAddress(),
      fc.ipV4(),
      fc.constantFrom('www.', 'http://', '.com', '。', '．', '@', ' ', '\n', ':', '//', 'xn--p1ai', '.рф'),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const out = defangLinks(pieces.join(''));
        const found = linkify.match(out);
        expect(found?.map((m) => m.url) ?? []).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('C35: a value is cut at a bound, in whole code points', () => {
    expect(cutShort('😀'.repeat(5), 3)).toBe('😀😀😀…');
    expect(cutShort('short', 10)).toBe('short');
  });
});
