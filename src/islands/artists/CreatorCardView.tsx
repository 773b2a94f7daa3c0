/**
 * The creator card for islands: same markup and classes as src/components/archive/CreatorCard.astro
 * (the artists browser test compares the two). The icons path comes in as a prop because islands
 * cannot read the server configuration.
 */
import { paysiteLabel } from '@shared/paysites/index.ts';
import { creatorUrl, iconUrl } from '@shared/urls.ts';
import { epochToIso, favoritesLabel, formatDate } from '@shared/format.ts';
import { HideCreatorButton } from '@site/components/archive/HideButton.tsx';

export interface CardCreator {
  id: string;
  name: string;
  service: string;
  updated: number;
  favorited?: number;
}

export default function CreatorCardView({ creator, iconsPath }: { creator: CardCreator; iconsPath: string }) {
  const updated = epochToIso(creator.updated);
  return (
    <article className="creator-card" data-service={creator.service} data-id={creator.id} data-favorited={creator.favorited}>
      <a href={creatorUrl(creator.service, creator.id)}>
        <img
          className="creator-card__icon"
          src={iconUrl(iconsPath, creator.service, creator.id)}
          alt=""
          width="48"
          height="48"
          loading="lazy"
        />
        <span className="creator-card__name">{creator.name}</span>
        <span className="creator-card__service">
          {paysiteLabel(creator.service)}
          {creator.favorited !== undefined && <span className="creator-card__favorites">{` · ${favoritesLabel(creator.favorited)}`}</span>}
        </span>
        {/* Made relative by src/components/RelativeTimes.astro, which also watches what islands insert. */}
        <span className="creator-card__updated">
          Updated{' '}
          <time dateTime={updated} data-relative="">
            {formatDate(updated)}
          </time>
        </span>
      </a>
      <HideCreatorButton service={creator.service} id={creator.id} name={creator.name} variant="card" />
    </article>
  );
}
