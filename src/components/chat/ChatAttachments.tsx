/**
 * The attachments of a chat message (Discord or community): image thumbnails linking to the file,
 * video players, file links (archives with their icon and a link to their file list). Static HTML;
 * every link opens in a new tab so the channel keeps its place.
 */
import { chatAttachmentView, type ChatAttachmentView } from '@shared/chat/attachments.ts';

function ArchiveIcon() {
  return (
    <svg className="chat-file__icon" width="20" height="20" viewBox="0 0 24 24" role="img" aria-label="Archive" focusable="false">
      <title>Archive</title>
      <path
        fill="currentColor"
        d="M4 3h16a1 1 0 0 1 1 1v3H3V4a1 1 0 0 1 1-1Zm-1 6h18v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V9Zm7 2v2h4v-2h-4Zm1-7v2h2V4h-2Z"
      />
    </svg>
  );
}

function FileIcon() {
  return (
    <svg className="chat-file__icon" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M6 2h8l6 6v13a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V3a1 1 0 0 1 1-1Zm7 1.5V9h5.5L13 3.5Z" />
    </svg>
  );
}

function Attachment({ view }: { view: ChatAttachmentView }) {
  switch (view.kind) {
    case 'image':
      return (
        <a className="chat-attachment chat-attachment--image" href={view.href} target="_blank" rel="noopener noreferrer">
          <img src={view.src} alt={view.name} loading="lazy" decoding="async" />
        </a>
      );
    case 'video':
      return (
        <video className="chat-attachment chat-attachment--video" controls preload="metadata" src={view.src}>
          <a href={view.href} target="_blank" rel="noopener noreferrer">
            {view.name}
          </a>
        </video>
      );
    default:
      return (
        <div className={`chat-attachment chat-file${view.archive ? ' chat-file--archive' : ''}`}>
          {view.archive ? <ArchiveIcon /> : <FileIcon />}
          <a className="chat-file__name" href={view.href} download={view.name} target="_blank" rel="noopener noreferrer">
            {view.name}
          </a>
          {view.browseHref && (
            <a className="chat-file__browse" href={view.browseHref} target="_blank" rel="noopener noreferrer">
              browse »
            </a>
          )}
        </div>
      );
  }
}

export default function ChatAttachments({
  attachments,
  imageHost,
}: {
  attachments: readonly { name?: string | null; path?: unknown }[] | null | undefined;
  imageHost: string;
}) {
  const views = (Array.isArray(attachments) ? attachments : []).flatMap((attachment) => {
    const view = attachment && typeof attachment === 'object' ? chatAttachmentView(attachment, imageHost) : undefined;
    return view ? [view] : [];
  });
  if (views.length === 0) return null;
  return (
    <div className="chat-attachments">
      {views.map((view, index) => (
        <Attachment key={index} view={view} />
      ))}
    </div>
  );
}
