import { describe, expect, it } from 'vitest';
import { PAYSITES, paysiteProfileUrl } from '@shared/paysites/index.ts';

describe('paysite profile links', () => {
  it('build each paysite page from its own id', () => {
    expect(paysiteProfileUrl('patreon', '10007919')).toBe('https://www.patreon.com/user?u=10007919');
    expect(paysiteProfileUrl('fanbox', '2104729')).toBe('https://www.pixiv.net/fanbox/creator/2104729');
    expect(paysiteProfileUrl('fantia', '10037')).toBe('https://fantia.jp/fanclubs/10037');
    expect(paysiteProfileUrl('discord', '802721280000000001')).toBe('https://discord.com/channels/802721280000000001');
    expect(paysiteProfileUrl('boosty', 'mira_draws')).toBe('https://boosty.to/mira_draws');
    expect(paysiteProfileUrl('subscribestar', 'mira')).toBe('https://subscribestar.adult/mira');
    expect(paysiteProfileUrl('onlyfans', 'mira')).toBe('https://onlyfans.com/mira');
    expect(paysiteProfileUrl('gumroad', '1000015485863')).toBe('https://gumroad.com/1000015485863');
    expect(paysiteProfileUrl('dlsite', 'RG10013')).toBe('https://www.dlsite.com/eng/circle/profile/=/maker_id/RG10013.html');
    expect(paysiteProfileUrl('fansly', '300000000001000003')).toBe('https://fansly.com/300000000001000003/posts');
    expect(paysiteProfileUrl('afdian', 'ab12')).toBe('https://afdian.com/u/ab12');
    expect(paysiteProfileUrl('candfans', '1017')).toBe('https://candfans.jp/1017');
  });

  it('gives every paysite an https link that an id cannot reshape', () => {
    for (const service of PAYSITES) {
      const url = new URL(paysiteProfileUrl(service, '../x?y#z'));
      expect(url.protocol, service).toBe('https:');
      expect(url.href, service).not.toContain('../');
      expect(url.hash, service).toBe('');
    }
  });
});
