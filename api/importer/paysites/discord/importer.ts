/**
 * The Discord importer: archives the messages of the channels the user named (the key is a user token).
 * 1. GET /users/@me checks the token (401: the import fails, a kept key is marked dead).
 * 2. The plan (./plan.ts): channels looked up, servers and channels stored, committed once.
 * 3. Each planned channel is read oldest to newest, GET /channels/{id}/messages?limit=100&after=<id>,
 *    starting after 0. One page is one step: its messages (attachments and embed media archived first)
 *    commit with the last message id read, so a resumed import continues right after the last stored
 *    page. Reading forwards (rather than with before=, from the newest) keeps the resume position a
 *    single id that only grows, and messages posted while the import runs are picked up at the end.
 * Every import reads each channel whole, so edits to old messages reach the archive too (upserts by
 * message id: nothing is stored twice).
 */
import { touchCreatorUpdated, upsertCreator, getCreator } from '@api/data/creators.ts';
import { upsertDiscordMessages } from '@api/data/discord.ts';
import { nowEpoch } from '@api/data/util.ts';
import { archiveFile, archiveFiles, type ArchivedFile } from '@api/importer/content.ts';
import { skipListedCreator } from '@api/importer/do-not-post.ts';
import { DiscordApi, type DiscordApiMessage } from './api.ts';
import { KEPT_MESSAGE_TYPES, embedMediaUrls, snowflakeMs, toMessageInput } from './map.ts';
import { planChannels, refusedLine, type DiscordCursor } from './plan.ts';
import type { ImportContext, PaysiteImporter } from '@api/importer/context.ts';
import { countLabel } from '@shared/format.ts';

/** Downloads a page's attachments and embed media; what could not be had is logged and left out. */
async function archiveMedia(ctx: ImportContext, api: DiscordApi, messages: DiscordApiMessage[]) {
  const attachments = new Map<string, ArchivedFile[]>();
  const media = new Map<string, string>();
  for (const message of messages) {
    attachments.set(
      message.id,
      await archiveFiles(
        ctx,
        api.client,
        message.attachments.map((a) => ({ url: a.url, name: a.filename })),
      ),
    );
    for (const embed of message.embeds) {
      for (const url of embedMediaUrls(embed)) {
        if (media.has(url)) continue;
        const file = await archiveFile(ctx, api.client, url);
        if (file) media.set(url, file.path);
      }
    }
  }
  return { attachments, media };
}

// A stop mid-request (SIGTERM, lost lease) is the worker's to handle: the committed cursor is where to resume.
export const discordImporter: PaysiteImporter = { run: (ctx) => importChannels(ctx) };

async function importChannels(ctx: ImportContext): Promise<void> {
  const api = new DiscordApi(ctx);
  await api.me();
  let cursor = await ctx.cursor<DiscordCursor>();
  if (!cursor) {
    // Not the account's name: anyone with the import id reads the log.
    await ctx.log('Signed in to Discord.');
    cursor = await planChannels(ctx, api);
  }
  const { plan } = cursor;
  await ctx.setSubCount(plan.length);

  for (let index = cursor.index; index < plan.length; index++) {
    const channel = plan[index];
    let after = index === cursor.index ? cursor.after : '0';
    let count = index === cursor.index ? cursor.count : 0;
    // Its server was put on the do-not-post list after the plan was made: none of its messages is stored.
    const listed = await skipListedCreator(ctx, channel.server);
    if (listed) {
      await ctx.step(() => undefined, { cursor: { plan, index: index + 1, after: '0', count: 0 }, log: [listed] });
      continue;
    }
    for (;;) {
      if (ctx.signal.aborted) return;
      let page: DiscordApiMessage[];
      try {
        page = await api.messagesAfter(channel.id, after);
      } catch (error) {
        // Seeing a channel does not mean reading its history (Read Message History permission).
        const line = refusedLine(`Channel ${channel.label}`, error);
        if (!line) throw error;
        await ctx.step(() => undefined, { cursor: { plan, index: index + 1, after: '0', count: 0 }, log: [line] });
        break;
      }
      if (page.length === 0) {
        await ctx.step(() => undefined, {
          cursor: { plan, index: index + 1, after: '0', count: 0 },
          log: [`Channel ${channel.label}: imported ${countLabel(count, 'message')}.`],
        });
        break;
      }
      const kept = page.filter((m) => KEPT_MESSAGE_TYPES.has(m.type));
      const { attachments, media } = await archiveMedia(ctx, api, kept);
      const inputs = kept.map((m) => toMessageInput(m, channel.server, attachments.get(m.id) ?? [], media));
      const last = page[page.length - 1].id;
      count += kept.length;
      await ctx.step(
        async () => {
          await upsertDiscordMessages(ctx.db, inputs);
          if (kept.length > 0)
            await touchCreatorUpdated(ctx.db, 'discord', channel.server, Math.floor(snowflakeMs(kept[kept.length - 1].id) / 1000));
        },
        { cursor: { plan, index, after: last, count } },
      );
      after = last;
    }
  }

  await ctx.step(
    async () => {
      const now = nowEpoch();
      for (const server of new Set(plan.map((p) => p.server))) {
        const creator = await getCreator(ctx.db, 'discord', server);
        if (creator) await upsertCreator(ctx.db, { service: 'discord', id: server, name: creator.name, last_imported: now });
      }
    },
    { cursor: { plan, index: plan.length, after: '0', count: 0 }, log: [`Imported ${countLabel(plan.length, 'channel')}.`] },
  );
}
