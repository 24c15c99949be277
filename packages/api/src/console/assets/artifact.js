// What an artifact looks like to a reviewer: its files (images, raw and processed; video in a player),
// a research report or an article rendered, anything else as its JSON; then its QA checks and what it cost.
import { duration, facts, h, usd } from './dom.js';
import { article, researchReport } from './markdown.js';

function image(url, label, content) {
  return h(
    'figure',
    { class: 'media' },
    h('img', {
      src: url,
      alt: `${label} image`,
      width: content.width ?? null,
      height: content.height ?? null,
      decoding: 'async',
      'data-file': label,
    }),
    h('figcaption', {}, label),
  );
}

function visual(content) {
  const figures = [];
  const processed = typeof content.storageKey === 'string' && content.storageKey.endsWith('/processed.webp');
  if (typeof content.rawUrl === 'string') figures.push(image(content.rawUrl, 'raw', content));
  if (typeof content.url === 'string') figures.push(image(content.url, processed ? 'processed' : 'raw (no processing step)', content));
  const notes = [];
  if (processed && typeof content.rawUrl !== 'string' && content.rawStorageKey)
    notes.push(h('p', { class: 'muted small' }, 'The raw file is kept in storage; the API does not offer a link to it.'));
  if (!figures.length) notes.push(h('p', { class: 'muted' }, 'No file link in this artifact.'));
  return [
    h('div', { class: 'figures' }, figures),
    notes,
    facts([
      ['Size', content.width && content.height ? `${content.width} × ${content.height}` : ''],
      ['Format', content.mimeType],
      ['Model', content.model],
      ['Background', content.transparency?.mechanism],
    ]),
  ];
}

function video(content) {
  return [
    typeof content.url === 'string'
      ? h('video', {
          src: content.url,
          controls: true,
          preload: 'metadata',
          playsinline: true,
          width: content.width ?? null,
          height: content.height ?? null,
          class: 'media-video',
        })
      : h('p', { class: 'muted' }, 'No file link in this artifact.'),
    facts([
      ['Length', typeof content.durationSeconds === 'number' ? `${content.durationSeconds} s` : ''],
      ['Measured', typeof content.measuredSeconds === 'number' ? `${content.measuredSeconds} s` : ''],
      ['Frame', content.width && content.height ? `${content.width} × ${content.height} @ ${content.fps ?? '?'} fps` : ''],
      ['Audio', typeof content.generateAudio === 'boolean' ? (content.generateAudio ? 'yes' : 'none') : ''],
      ['Segments', Array.isArray(content.segments) ? String(content.segments.length) : ''],
    ]),
  ];
}

function body(artifact) {
  const content = artifact.content ?? {};
  switch (artifact.artifactClass) {
    case 'visual':
      return visual(content);
    case 'video':
      return video(content);
    case 'research':
      return researchReport(content);
    // Knowledge: an article (or any text the class carries) is read, not shown as JSON.
    case 'knowledge':
      if (artifact.artifactType === 'article' || 'standfirst' in content || Array.isArray(content.body)) return article(content);
      if (Array.isArray(content.sections)) return researchReport(content);
      return h('pre', { class: 'json' }, JSON.stringify(content, null, 2));
    default:
      return h('pre', { class: 'json' }, JSON.stringify(content, null, 2));
  }
}

/** An artifact: heading, files or report, and the hold already given (after an approval). */
export function artifactView(artifact) {
  const hold = artifact.content?.hold;
  return h(
    'section',
    { class: 'artifact', 'aria-label': `Artifact ${artifact.title}` },
    h(
      'h2',
      {},
      artifact.title || artifact.id,
      ' ',
      h('span', { class: 'muted small' }, `${artifact.artifactClass} · ${artifact.artifactType}`),
    ),
    body(artifact),
    hold && typeof hold === 'object'
      ? facts(Object.entries(hold).map(([k, v]) => [`Hold: ${k}`, typeof v === 'string' ? v : JSON.stringify(v)]))
      : null,
  );
}

const MARK = { pass: '✓', fail: '✗', pending: '…' };

/** The QA record: each check with its status, label and detail. */
export function qaView(qa) {
  const checks = Array.isArray(qa?.checks) ? qa.checks : [];
  return h(
    'section',
    { class: 'qa', 'aria-label': 'QA checks' },
    h('h3', {}, 'QA ', h('span', { class: 'muted small' }, qa?.status ?? 'no record')),
    checks.length
      ? h(
          'ul',
          { class: 'plain checks' },
          checks.map((c) =>
            h(
              'li',
              { class: `check c-${c.status}` },
              h('span', { class: 'mark', 'aria-label': c.status }, MARK[c.status] ?? '?'),
              ' ',
              h('strong', {}, c.label || c.id),
              c.detail ? h('span', { class: 'muted' }, ` — ${c.detail}`) : null,
            ),
          ),
        )
      : h('p', { class: 'muted small' }, 'No checks recorded.'),
  );
}

/** What a run cost: estimate against actual, and per model step. */
export function costView(run) {
  const costs = run.totalCosts ?? {};
  const paid = (run.runSteps ?? []).filter((s) => s.costActualUsd > 0);
  return h(
    'section',
    { class: 'cost', 'aria-label': 'Cost' },
    h('h3', {}, 'Cost'),
    facts([
      ['Actual', `${usd(costs.actualUsd, costs.currency)}${costs.status ? ` (${costs.status})` : ''}`],
      ['Estimated', usd(costs.estimatedUsd, costs.currency)],
      ['Run time', duration(run.durationMs)],
    ]),
    paid.length
      ? h(
          'ul',
          { class: 'plain small' },
          paid.map((s) => h('li', {}, `${s.name}: ${usd(s.costActualUsd, costs.currency)}${s.model ? ` (${s.model})` : ''}`)),
        )
      : null,
  );
}
