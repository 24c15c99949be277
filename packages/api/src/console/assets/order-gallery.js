// An order's gallery: one tile per succeeded child (completed, or waiting in review, as the order counts
// them), showing its artifact — an image as a thumbnail of its file, a video as its first frame, anything
// else by its title — and linking to the child run's page. Capped: the first PAGE tiles, then "Show more".
import { api } from './api.js';
import { fill, h } from './dom.js';

export const GALLERY_PAGE = 60;
const SUCCEEDED = ['completed', 'review'];
// Artifact reads at once: enough to fill a screen quickly without a burst of sixty requests.
const PARALLEL = 6;

/** Artifacts by id, kept across refreshes: a settled child's artifact does not change, so it is read once. */
const artifacts = new Map();

async function readArtifacts(ids) {
  const missing = ids.filter((id) => !artifacts.has(id));
  for (let i = 0; i < missing.length; i += PARALLEL) {
    await Promise.all(
      missing.slice(i, i + PARALLEL).map(async (id) => {
        try {
          artifacts.set(id, await api('GET', `/v1/artifacts/${encodeURIComponent(id)}`));
        } catch {
          // Not kept: the tile says "No artifact" for now and the next refresh reads it again.
        }
      }),
    );
  }
}

function thumb(artifact) {
  const content = artifact?.content ?? {};
  const url = typeof content.url === 'string' ? content.url : typeof content.rawUrl === 'string' ? content.rawUrl : undefined;
  if (artifact?.artifactClass === 'visual' && url)
    return h('img', { src: url, alt: artifact.title || 'image', loading: 'lazy', decoding: 'async', class: 'thumb' });
  // Metadata only: enough for the first frame, without downloading whole clips for a grid.
  if (artifact?.artifactClass === 'video' && url)
    return h('video', {
      src: url,
      preload: 'metadata',
      muted: true,
      playsinline: true,
      class: 'thumb',
      'aria-label': artifact.title || 'video',
    });
  return h('span', { class: 'thumb text' }, artifact ? artifact.title || artifact.artifactType : 'No artifact');
}

function tile(run) {
  const artifact = run.artifactId ? artifacts.get(run.artifactId) : undefined;
  return h(
    'li',
    { 'data-run-id': run.id },
    h(
      'a',
      { href: `/console/runs/${encodeURIComponent(run.id)}`, class: 'tile', title: `Run ${run.id}` },
      thumb(artifact),
      h('span', { class: 'caption small' }, artifact?.title || run.artifactId || 'No artifact'),
      h('span', { class: 'caption small muted' }, run.id),
    ),
  );
}

/**
 * Fills `box` with the tiles of the succeeded children among `children` (the pages loaded so far),
 * at most `shown` of them. `more` is offered when tiles or unloaded children remain.
 */
export async function renderGallery(box, children, { shown, unloaded, more }) {
  const succeeded = children.filter((r) => SUCCEEDED.includes(r.status));
  const visible = succeeded.slice(0, shown);
  await readArtifacts(visible.map((r) => r.artifactId).filter(Boolean));
  const tiles = visible.map(tile);
  const hidden = succeeded.length - visible.length;
  // The same tiles again (a refresh with nothing new) are left in place, so images do not flicker.
  const key = visible.map((r) => `${r.id}:${r.artifactId ?? ''}:${artifacts.has(r.artifactId)}`).join(',');
  if (box.dataset.key === key && box.dataset.more === String(hidden > 0 || unloaded)) return;
  box.dataset.key = key;
  box.dataset.more = String(hidden > 0 || unloaded);
  fill(
    box,
    h('h2', {}, 'Gallery ', h('span', { class: 'muted small' }, `${succeeded.length}${unloaded ? '+' : ''} succeeded`)),
    tiles.length ? h('ul', { class: 'gallery' }, tiles) : h('p', { class: 'muted' }, 'No child has succeeded yet.'),
    hidden > 0 || unloaded
      ? h(
          'p',
          {},
          h(
            'button',
            { type: 'button', class: 'show-more', onclick: more },
            hidden > 0 ? `Show ${Math.min(hidden, GALLERY_PAGE)} more` : 'Show more',
          ),
        )
      : null,
  );
}
