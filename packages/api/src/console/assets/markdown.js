// Research reports and notes are markdown-ish text written by models. This renders the common part
// (headings, paragraphs, lists, quotes, code, bold, italics, links) into DOM nodes built from text
// nodes, so nothing in the text can become markup or script; anything else stays as plain text.
import { h } from './dom.js';

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))|(https?:\/\/[^\s)]+)/g;

/** A link only for http(s) addresses; it opens in a new tab and sends no referrer. */
function safeLink(text, href) {
  return /^https?:\/\//i.test(href) ? h('a', { href, rel: 'noopener noreferrer', target: '_blank' }, text) : `${text} (${href})`;
}

export function inline(text) {
  const out = [];
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const [token, code, strong, em, mdLink, url] = m;
    if (code) out.push(h('code', {}, code.slice(1, -1)));
    else if (strong) out.push(h('strong', {}, inline(strong.slice(2, -2))));
    else if (em) out.push(h('em', {}, inline(em.slice(1, -1))));
    else if (mdLink) {
      const [, label, href] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(mdLink);
      out.push(safeLink(label, href));
    } else if (url) out.push(safeLink(url, url));
    at = m.index + token.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Block structure, line by line; `baseLevel` is the heading level a `#` heading maps to. */
export function markdown(text, baseLevel = 3) {
  const lines = String(text ?? '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const blocks = [];
  let paragraph = [];
  let list;
  const flush = () => {
    if (paragraph.length) blocks.push(h('p', {}, inline(paragraph.join(' '))));
    paragraph = [];
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (trimmed.startsWith('```')) {
      flush();
      const code = [];
      while (++i < lines.length && !lines[i].trim().startsWith('```')) code.push(lines[i]);
      blocks.push(h('pre', {}, h('code', {}, code.join('\n'))));
      continue;
    }
    if (trimmed === '') {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(trimmed);
    if (heading) {
      flush();
      blocks.push(h(`h${Math.min(6, baseLevel + heading[1].length - 1)}`, {}, inline(heading[2])));
      continue;
    }
    const item = /^(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(trimmed);
    if (item) {
      if (paragraph.length) flush();
      const tag = item[1] ? 'ul' : 'ol';
      if (!list || list.tagName.toLowerCase() !== tag) blocks.push((list = h(tag)));
      list.append(h('li', {}, inline(item[3])));
      continue;
    }
    if (trimmed.startsWith('>')) {
      flush();
      blocks.push(h('blockquote', {}, inline(trimmed.replace(/^>\s?/, ''))));
      continue;
    }
    list = undefined;
    paragraph.push(trimmed);
  }
  flush();
  return blocks;
}

/** A research report's content: title, summary, ordered sections, sources. */
export function researchReport(content) {
  const sections = Array.isArray(content.sections) ? content.sections : [];
  const sources = Array.isArray(content.sources) ? content.sources : [];
  return h(
    'article',
    { class: 'report' },
    content.title ? h('h3', {}, String(content.title)) : null,
    content.summary ? h('div', { class: 'summary' }, markdown(content.summary, 4)) : null,
    sections.map((s) =>
      h(
        'section',
        {},
        h('h4', {}, String(s?.heading ?? 'Section')),
        markdown(typeof s?.body === 'string' ? s.body : JSON.stringify(s?.body), 5),
      ),
    ),
    sources.length
      ? h(
          'section',
          {},
          h('h4', {}, 'Sources'),
          h(
            'ol',
            {},
            sources.map((src) => h('li', {}, inline(typeof src === 'string' ? src : JSON.stringify(src)))),
          ),
        )
      : null,
  );
}

const texts = (v) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));

/** A titled list of inline-marked items (`ul` or `ol`), or nothing when there are none. */
function listSection(title, tag, items) {
  return items.length
    ? h(
        'section',
        {},
        h('h4', {}, title),
        h(
          tag,
          {},
          items.map((item) => h('li', {}, inline(item))),
        ),
      )
    : null;
}

/**
 * An article (knowledge class, from compose-article): title, standfirst, body paragraphs, key takeaways,
 * sources — read as an article, not as its JSON.
 */
export function article(content) {
  const takeaways = texts(content.keyTakeaways);
  const sources = texts(content.sources);
  return h(
    'article',
    { class: 'report article' },
    content.title ? h('h3', {}, String(content.title)) : null,
    content.standfirst ? h('p', { class: 'standfirst' }, inline(String(content.standfirst))) : null,
    texts(content.body).map((paragraph) => markdown(paragraph, 4)),
    listSection('Key takeaways', 'ul', takeaways),
    listSection('Sources', 'ol', sources),
  );
}
