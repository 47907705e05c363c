// A page laid out narrower than headless Chromium allows: its windows are never laid out under 500 px, whatever
// --window-size says, so a 400 px page goes into an iframe that wide. Used by the browser tests and screenshots.mjs.

/** Headless Chromium never lays a window out narrower than this. */
export const NARROWEST_WINDOW = 500;

/**
 * The page to load instead of `html` so that it is laid out `width` px wide: below NARROWEST_WINDOW, `html` in an
 * iframe `width` × `height` px at the top left (its media queries and `innerWidth` see the iframe; a screenshot of a
 * window `width` px wide shows just it). What the inner page writes to `<pre id="result">` and its title are copied
 * out, where --dump-dom shows them first, at load and as they change. At NARROWEST_WINDOW or wider: `html` itself.
 */
export function atWidth(html, width, height = 900) {
  if (width >= NARROWEST_WINDOW) return html;
  const srcdoc = html.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body { margin: 0; } #result { display: none; }</style></head><body><pre id="result"></pre><iframe id="narrow" style="display: block; width: ${width}px; height: ${height}px; border: 0" srcdoc="${srcdoc}"></iframe><script>
const frame = document.getElementById('narrow');
const copy = () => {
  const inner = frame.contentDocument;
  const result = inner.getElementById('result');
  if (result !== null) document.getElementById('result').textContent = result.textContent;
  if (inner.title !== '') document.title = inner.title;
};
frame.addEventListener('load', () => { copy(); setInterval(copy, 100); });
</script></body></html>`;
}
