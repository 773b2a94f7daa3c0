/** Multilingual text for the demo archive: creator names, post titles and bodies, tags, comments. */
import { escapeHtml } from '@shared/html.ts';
import type { Rng } from './random.ts';

export type Language = 'en' | 'ja' | 'zh' | 'ru' | 'ko' | 'es' | 'fr' | 'de';

/** Relative frequency of each language in generated posts. */
export const LANGUAGE_WEIGHTS: [Language, number][] = [
  ['en', 40],
  ['ja', 22],
  ['zh', 12],
  ['ru', 8],
  ['ko', 8],
  ['es', 4],
  ['fr', 3],
  ['de', 3],
];

export function pickLanguage(rng: Rng): Language {
  const total = LANGUAGE_WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
  let roll = rng.next() * total;
  for (const [lang, weight] of LANGUAGE_WEIGHTS) {
    roll -= weight;
    if (roll < 0) return lang;
  }
  return 'en';
}

const THINGS: Record<Language, string[]> = {
  en: [
    'forest spirit',
    'night market',
    'robot cat',
    'winter witch',
    'sky whale',
    'lighthouse',
    'tea party',
    'dragon egg',
    'rainy station',
    'paper boat',
  ],
  ja: ['森の精霊', '夜市', 'ロボ猫', '冬の魔女', '空飛ぶ鯨', '灯台', 'お茶会', '竜の卵', '雨の駅', '紙の舟'],
  zh: ['森林精灵', '夜市', '机器猫', '冬之魔女', '天空鲸鱼', '灯塔', '茶会', '龙蛋', '雨中车站', '纸船'],
  ru: [
    'лесной дух',
    'ночной рынок',
    'робокот',
    'зимняя ведьма',
    'небесный кит',
    'маяк',
    'чаепитие',
    'драконье яйцо',
    'дождливый вокзал',
    'бумажный кораблик',
  ],
  ko: ['숲의 정령', '야시장', '로봇 고양이', '겨울 마녀', '하늘 고래', '등대', '티 파티', '용의 알', '비 오는 역', '종이배'],
  es: ['espíritu del bosque', 'mercado nocturno', 'gato robot', 'bruja de invierno', 'ballena del cielo', 'faro'],
  fr: ['esprit de la forêt', 'marché de nuit', 'chat robot', "sorcière d'hiver", 'baleine céleste', 'phare'],
  de: ['Waldgeist', 'Nachtmarkt', 'Roboterkatze', 'Winterhexe', 'Himmelswal', 'Leuchtturm'],
};

const TITLES: Record<Language, string[]> = {
  en: [
    'Weekly sketch dump #{n}',
    'Commission: {thing}',
    'WIP {thing} (part {n})',
    'Monthly reward pack #{n}',
    'Behind the scenes: {thing}',
    'New illustration - {thing}',
    'Timelapse #{n}',
    'Colour study: {thing}',
    'Patron poll results #{n}',
    'Comic page {n}',
  ],
  ja: [
    '今週のラフまとめ #{n}',
    '黒猫の日常 {n}',
    '新作イラスト「{thing}」',
    '差分セット {n}',
    '作業配信アーカイブ #{n}',
    '{thing}のラフ',
    '月末まとめ {n}',
    '漫画 第{n}話',
  ],
  zh: ['每周草图合集 #{n}', '原创插画：{thing}', '本月奖励 {n}', '{thing} 线稿', '过程分享 #{n}', '黑猫日记 第{n}篇', '新作预告：{thing}'],
  ru: ['Еженедельные наброски #{n}', 'Новая иллюстрация: {thing}', 'Процесс работы #{n}', 'Скетч: {thing}', 'Награды месяца {n}'],
  ko: ['이번 주 스케치 모음 #{n}', '신작 일러스트 {thing}', '작업 과정 #{n}', '{thing} 러프', '월간 리워드 {n}'],
  es: ['Bocetos de la semana #{n}', 'Nueva ilustración: {thing}', 'Proceso #{n}'],
  fr: ['Croquis de la semaine #{n}', 'Nouvelle illustration : {thing}', 'Making-of #{n}'],
  de: ['Skizzen der Woche #{n}', 'Neue Illustration: {thing}', 'Arbeitsprozess #{n}'],
};

const SENTENCES: Record<Language, string[]> = {
  en: [
    'Thank you so much for your support this month!',
    'Here is the full resolution version of the {thing} piece.',
    'I tried a new brush set for the background, let me know what you think.',
    'The layered file is attached for higher tiers.',
    'Next week I will start on the {thing} series.',
    'This one took about twelve hours, mostly on the lighting.',
    'Sorry for the delay, I was sick for a few days.',
    'Alternative versions are in the zip file below.',
    'Feel free to suggest themes for the next poll.',
  ],
  ja: [
    'いつも支援ありがとうございます！',
    '今回は{thing}をテーマに描きました。',
    '高解像度版と差分を添付しています。',
    '黒猫の日常シリーズの続きです。',
    '背景に新しいブラシを試してみました。',
    '来週は{thing}の続きを描く予定です。',
    '感想をいただけると励みになります。',
  ],
  zh: [
    '感谢大家本月的支持！',
    '这次的主题是{thing}。',
    '附件里有高清版本和线稿。',
    '下周开始画{thing}系列。',
    '背景尝试了新的笔刷，欢迎留言。',
    '黑猫日记还会继续更新。',
  ],
  ru: [
    'Спасибо за вашу поддержку в этом месяце!',
    'Это полная версия работы «{thing}».',
    'Исходники приложены для старших уровней.',
    'На следующей неделе начну серию про {thing}.',
    'Пишите в комментариях, что вы думаете.',
  ],
  ko: [
    '이번 달도 후원해 주셔서 감사합니다!',
    '이번 주제는 {thing}입니다.',
    '고해상도 버전과 차분을 첨부했습니다.',
    '다음 주에는 {thing} 시리즈를 시작합니다.',
    '의견을 댓글로 남겨 주세요.',
  ],
  es: ['¡Muchas gracias por vuestro apoyo!', 'Aquí está la versión completa de {thing}.', 'Los archivos en capas están adjuntos.'],
  fr: ['Merci beaucoup pour votre soutien !', 'Voici la version complète de {thing}.', 'Les fichiers sources sont en pièce jointe.'],
  de: ['Vielen Dank für eure Unterstützung!', 'Hier ist die volle Version von {thing}.', 'Die Ebenen-Datei ist angehängt.'],
};

/** Tags, in several languages (used on services that have tags). */
export const TAGS = [
  'illustration',
  'original',
  'sketch',
  'wip',
  'comic',
  'timelapse',
  'fanart',
  'landscape',
  'character design',
  'psd',
  'オリジナル',
  'イラスト',
  '黒猫',
  '落書き',
  '原创',
  '插画',
  '草图',
  'арт',
  '일러스트',
  'cat',
];

const NAME_FIRST = [
  'Mikan',
  'Luna',
  'Kuro',
  'Haru',
  'Nova',
  'Pixel',
  'Moss',
  'Yuki',
  'Sora',
  'Ember',
  'Tofu',
  'Kiwi',
  'Aster',
  'Rin',
  'Juniper',
  'Comet',
];
const NAME_SECOND = ['Studio', 'Atelier', 'Works', 'Art', 'Draws', 'Sketchbook', 'Factory', 'Lab', 'Garden', 'House'];
const NAME_NATIVE = [
  '黒猫工房',
  'みかん堂',
  '月夜のアトリエ',
  '小鹿画室',
  '青空插画',
  'Ночная Сова',
  'Мастерская Луны',
  '별빛 아뜰리에',
  '하늘 공방',
  'Atelier Lune',
  'Estudio Nube',
  'Pinselwerk',
];

/** A creator display name; `index` keeps names distinct on large runs. */
export function creatorName(rng: Rng, index: number): string {
  if (index < NAME_NATIVE.length && rng.chance(0.5)) return NAME_NATIVE[index];
  const base = `${rng.pick(NAME_FIRST)} ${rng.pick(NAME_SECOND)}`;
  return index < 40 ? base : `${base} ${index}`;
}

/** A handle for services whose ids are usernames (boosty, onlyfans, subscribestar) or public ids. */
export function handle(rng: Rng, index: number): string {
  return `${rng.pick(NAME_FIRST).toLowerCase()}${rng.pick(['art', 'draws', 'studio', 'works', 'sketch'])}${index}`;
}

function fill(template: string, rng: Rng, lang: Language, n: number): string {
  return template.replace('{n}', String(n)).replace('{thing}', rng.pick(THINGS[lang]));
}

export function postTitle(rng: Rng, lang: Language, n: number): string {
  return fill(rng.pick(TITLES[lang]), rng, lang, n);
}

/** Sanitized HTML for a post body: 1-3 paragraphs, sometimes a link, bold text or a line break. */
export function postContent(rng: Rng, lang: Language, n: number): string {
  const paragraphs = rng.int(1, 3);
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p += 1) {
    const sentences = rng.int(1, 3);
    const parts: string[] = [];
    for (let s = 0; s < sentences; s += 1) parts.push(escapeHtml(fill(rng.pick(SENTENCES[lang]), rng, lang, n)));
    let html = parts.join(' ');
    if (p === 0 && rng.chance(0.25)) html = `<strong>${html}</strong>`;
    if (rng.chance(0.15)) html += `<br>${escapeHtml(fill(rng.pick(SENTENCES[lang]), rng, lang, n))}`;
    out.push(`<p>${html}</p>`);
  }
  if (rng.chance(0.1)) {
    out.push(
      `<p><a href="https://example.com/gallery/${n}" target="_blank" rel="noopener noreferrer">https://example.com/gallery/${n}</a></p>`,
    );
  }
  return out.join('');
}

export const COMMENTS = [
  'Love this!',
  'The colours are amazing 😍',
  'すごく可愛いです！',
  '太好看了！',
  'Очень круто!',
  '최고예요!',
  'Can you do a version with a sunset background?',
  'Thank you for the PSD!',
  'Waiting for the next part.',
];

export const COMMENTER_NAMES = ['kiwi_fan', 'ねこすき', 'ArtLover99', '小明', 'Саша', '민지', 'patron_42', 'sketchy'];

export function sentence(rng: Rng, lang: Language): string {
  return fill(rng.pick(SENTENCES[lang]), rng, lang, rng.int(1, 99));
}
