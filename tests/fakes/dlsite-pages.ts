/**
 * The HTML pages of the fake DLsite, with the markup its clients read (/work/research/dlsite.md §1, §2.3,
 * §2.4): login.dlsite.com's form (`input[name=_token]`, the wrong-password text), the work page (#work_name,
 * #work_maker span.maker_name a, table#work_outline th/td, div.work_genre span.icon_XXX,
 * div[itemprop=description] inside #main_inner, meta description, div.product-slider-data div[data-src]),
 * the circle profile (strong.prof_maker_name), the split-download page (one link per part) and the serial
 * page (a direct link and the <h2>シリアル番号</h2> table, as dm-api parses them).
 */
import { escapeHtml as esc } from './kit/server.ts';
import type { DlsiteMaker, DlsiteWork } from './dlsite-data.ts';
import { descriptionHtml, filesOf, imagePath, relative, type ImgHost } from './dlsite-render.ts';

const htmlPage = (title: string, body: string) =>
  `<!DOCTYPE html>\n<html lang="ja"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const jpDate = (iso: string) => {
  const d = new Date(Date.parse(iso) + 9 * 3600_000);
  return `${d.getUTCFullYear()}年${String(d.getUTCMonth() + 1).padStart(2, '0')}月${String(d.getUTCDate()).padStart(2, '0')}日`;
};

export const WRONG_PASSWORD = 'ログインIDかパスワードが間違っています。';

export function loginPage(token: string, failed = false): string {
  return htmlPage(
    'ログイン | DLsite',
    `<div id="login"><h1>ログイン</h1>${failed ? `<p class="error">${WRONG_PASSWORD}</p>` : ''}
<form method="POST" action="/login"><input type="hidden" name="_token" value="${token}">
<input type="text" name="login_id"><input type="password" name="password"><button type="submit">ログイン</button></form></div>`,
  );
}

export const pageExpired = () => htmlPage('Page Expired', '<div class="title">419 | Page Expired</div>');
/** The store's top page and the end of the login chain; 'ログイン中です' when the session is good. */
export const homePage = (loggedIn: boolean) =>
  htmlPage('DLsite', loggedIn ? '<p class="login_status">ログイン中です</p>' : '<a href="/login?user=self">ログイン</a>');
export const notFoundPage = () =>
  htmlPage('お探しのページは見つかりませんでした | DLsite', '<h1>お探しのページは見つかりませんでした。</h1>');

export function ageGatePage(w: DlsiteWork): string {
  return htmlPage(
    '年齢認証 | DLsite',
    `<div id="adult_check"><p>このページには18歳未満の方に不適切な内容が含まれています。</p><a href="?adultchecked=1">はい</a><a href="/home/">いいえ</a><!-- ${w.workno} --></div>`,
  );
}

export function workPage(w: DlsiteWork, maker: DlsiteMaker, img: ImgHost, origin: string): string {
  const samples = Array.from({ length: w.samples }, (_, i) => relative(img, imagePath(w, `smp${i + 1}`)));
  const description = descriptionHtml(w, img);
  const row = (th: string, td: string) => `<tr><th>${th}</th><td>${td}</td></tr>`;
  const people = (cls: string, label: string) => {
    const names = w.creators.filter((c) => c.class === cls).map((c) => `<a href="#">${esc(c.name)}</a>`);
    return names.length ? row(label, names.join(' / ')) : '';
  };
  const genre = w.genres.length
    ? row(
        'ジャンル',
        `<div class="main_genre">${w.genres.map((g) => `<a href="${origin}/${w.site}/fsr/=/genre/${g.id}">${esc(g.name)}</a>`).join('')}</div>`,
      )
    : '';
  const icons = [w.workType, ...(w.icons ?? [])].map((i) => `<span class="icon_${i}" title="${i}">${i}</span>`).join('');
  return `<!DOCTYPE html>
<html lang="ja"><head><meta charset="utf-8"><title>${esc(w.name.ja_JP)} [${esc(maker.name)}] | DLsite</title>
<meta name="description" content="${esc(w.introS)}"></head><body>
<div id="main_inner">
<h1 id="work_name">${esc(w.name.ja_JP)}</h1>
<table id="work_maker"><tr><th>サークル名</th><td><span class="maker_name"><a href="${origin}/${w.site}/circle/profile/=/maker_id/${maker.id}.html">${esc(maker.name)}</a></span></td></tr></table>
<div class="product-slider-data">${samples.map((s) => `<div data-src="${s}"></div>`).join('')}</div>
<table id="work_outline">
${row('販売日', `<a href="#">${jpDate(w.registDate)}</a>`)}${w.upgradeDate ? row('最終更新日', jpDate(w.upgradeDate)) : ''}
${people('created_by', '作者')}${people('scenario_by', 'シナリオ')}${people('illust_by', 'イラスト')}${people('voice_by', '声優')}${people('music_by', '音楽')}
${row('作品形式', `<div class="work_genre">${icons}</div>`)}${genre}
${row('ファイル形式', `<div class="work_genre"><span class="icon_${w.fileType}">${w.fileType}</span></div>`)}${row('ファイル容量', `<div class="main_genre">${filesOf(w).length} files</div>`)}
</table>
<div class="work_parts_container"><div itemprop="description" class="work_parts type_text">${description}</div></div>
</div></body></html>`;
}

export function circlePage(maker: DlsiteMaker, works: DlsiteWork[], origin: string): string {
  return htmlPage(
    `${esc(maker.name)} | DLsite`,
    `<div id="main_inner"><strong class="prof_maker_name">${esc(maker.name)}</strong>
<ul class="n_worklist">${works.map((w) => `<li><a href="${origin}/${w.site}/work/=/product_id/${w.workno}.html">${esc(w.name.ja_JP)}</a></li>`).join('')}</ul></div>`,
  );
}

export function splitPage(w: DlsiteWork, origin: string): string {
  const links = filesOf(w).map(
    (name, i) =>
      `<tr><td>${esc(name)}</td><td><a href="${origin}/home/download/=/number/${i + 1}/product_id/${w.workno}.html" class="btn_dl">ダウンロード</a></td></tr>`,
  );
  return htmlPage(
    '分割ダウンロード | DLsite',
    `<h2>分割ダウンロード</h2><table class="work_dl_list">${links.join('')}</table><a href="/home/download/split/=/product_id/${w.workno}.html">self</a>`,
  );
}

export function serialPage(w: DlsiteWork, origin: string, serial: string): string {
  return htmlPage(
    'シリアル番号 | DLsite',
    `<p class="work_download"><a href="${origin}/home/download/=/product_id/${w.workno}.html">ダウンロード</a></p>
<h2>シリアル番号</h2><table class="serial"><tr><th>シリアル番号</th><td><strong class="color_02">${esc(serial)}</strong></td></tr></table>`,
  );
}
