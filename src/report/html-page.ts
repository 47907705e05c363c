// The one HTML page shell of the gate report and the history dashboard: a CSP that forbids everything but inline styles and data: images.

/** Nothing may load or run: no script, no network, no font or stylesheet file; inline styles and data: images only. */
export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** A complete document around `body`; `title` is HTML text already escaped, `style` our own CSS. */
export function htmlPage(title: string, style: string, body: readonly string[]): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // A constant without `"` or `<`: safe in a double-quoted attribute as it is.
    `<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<style>${style}</style>`,
    '</head>',
    '<body>',
    '<main>',
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
