/**
 * Recorded-shape fixtures of DLsite, one per content kind, for table-driven mapper tests. On DLsite one
 * purchased work is one post, so each fixture holds what an importer reads about a work: the Play API's
 * `content/works` object (`play`), the store's product.json object (`product`, the answer is [product]) and
 * how its files download (`download`: the Location of play.dlsite.com/api/v3/download and the file names).
 * Real host names (img.dlsite.jp, www.dlsite.com); rendered by the fake's own renderers (dlsite-render.ts)
 * from the demo dataset, with sizes of the fake's archives. `source` names where each shape comes from in
 * /work/research/dlsite.md.
 */
import { demoDataset, type DlsiteWork } from './dlsite-data.ts';
import { REAL_IMG, archiveBytes, descriptionHtml, downloadPath, filesOf, playWork, productJson, salesItem } from './dlsite-render.ts';

export interface DlsiteFixture {
  kind: string;
  source: string;
  sales: unknown;
  play: unknown;
  product: unknown;
  /** The work page's div[itemprop=description] HTML (the long description). */
  description: string | null;
  download: { status: number; location?: string; files: string[] };
}

const PLAY_SOURCE = 'content/works object: notes §2.2 (dm-api model.rs fixture + live notes, BH _parse_purchase)';
const PRODUCT_SOURCE = 'product.json: notes §2.3 (dlsite-rs ProductApiContent, dm-api test fixture)';

export async function dlsiteFixtures(): Promise<DlsiteFixture[]> {
  const data = demoDataset();
  const sizes = new Map<string, number>();
  for (const w of data.works) for (const [name, bytes] of await archiveBytes(w)) sizes.set(name, bytes.length);
  const fixture = (workno: string, kind: string, source: string): DlsiteFixture => {
    const w = data.works.find((x) => x.workno === workno) as DlsiteWork;
    const maker = data.makers.find((m) => m.id === w.makerId)!;
    const owned = w.salesDate !== undefined && !w.gone;
    const total = filesOf(w).reduce((s, n) => s + (sizes.get(n) ?? 0), 0);
    return {
      kind,
      source: `${source}; ${PLAY_SOURCE}; ${PRODUCT_SOURCE}`,
      sales: w.salesDate ? salesItem(w) : null,
      play: owned ? playWork(w, maker, REAL_IMG, total) : null,
      product: w.gone ? null : productJson(w, maker, REAL_IMG, sizes),
      description: w.gone ? null : descriptionHtml(w, REAL_IMG),
      download:
        owned && w.delivery.kind !== 'browser'
          ? { status: 302, location: `https://www.dlsite.com${downloadPath(w)}`, files: filesOf(w) }
          : { status: 404, files: [] },
    };
  };
  return [
    fixture('RJ01000008', 'text only (a novel: the description and a zip of .txt)', 'work kinds by work_type: notes §2.2/§3'),
    fixture(
      'RJ01000007',
      'gallery (a CG set: sample images, a zip of JPEGs) and unicode title',
      'image_samples / sample slider: notes §2.3, §3',
    ),
    fixture(
      'RJ01000001',
      'file (voice work: one direct zip with cp932 entry names; version up)',
      'direct redirect and real names: notes §2.4 (dm-api, DECK tests on cp932), upgrade_date §3',
    ),
    fixture(
      'RJ01000001',
      'blog with inline image (the work page description holds a sample image)',
      'div[itemprop=description]: notes §2.3 (BH _scraper.py, dlsite-go parse.go)',
    ),
    fixture(
      'RJ01000004',
      'embed (none on DLsite: the nearest is a browser-only work read in Play; no download)',
      'icon_WBO, is_dlsiteplay_only_work, ziptree: notes §2.4, §3',
    ),
    fixture('RJ01000006', 'video (a movie work: zip holding an MP4)', 'work_type MOV: notes §2.2'),
    fixture('RJ01000011', 'audio (a voice work)', 'work_type SOU: notes §2.2'),
    fixture('RJ01000010', 'locked (not bought: public product.json only, download 404)', 'notes §3 "Locked": purchased or not, no tiers'),
    fixture(
      'RJ01000009',
      'deleted (withdrawn: in sales, no works object, no product.json, download 404)',
      'notes §2.2 (fewer works than requested) and §3 "Deleted works"',
    ),
    fixture('RJ01000002', 'split archive (two parts)', 'split page and /number/N/ links: notes §2.4 (dm-api live notes)'),
    fixture('VJ01000003', 'serial work (direct link + serial table; the serial is a secret)', 'serial page: notes §2.4 (dm-api)'),
    fixture('RJ01000005', 'DRM work (icon_PVA, .dlst file)', 'notes §3 (DLSH FindWorkTypeFromWeb, Kemono2 notes)'),
  ];
}
