const GAP = '  ';
const MIN_FLEX_WIDTH = 12;
const DEFAULT_FLEX_WIDTH = 60;
const SHORTENED_SUFFIX = /…[^]*(~[0-9a-f]{12}[:;,.)]?)$/;
function displayWidth(text) {
    let width = 0;
    for (const ch of text) {
        const cp = ch.codePointAt(0) ?? 0;
        if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0xfe00 && cp <= 0xfe0f))
            continue;
        width += isWide(cp) ? 2 : 1;
    }
    return width;
}
const WIDE_RANGES = [
    [0x1100, 0x115f],
    [0x2e80, 0x303e],
    [0x3041, 0x33ff],
    [0x3400, 0x4dbf],
    [0x4e00, 0x9fff],
    [0xa000, 0xa4cf],
    [0xac00, 0xd7a3],
    [0xf900, 0xfaff],
    [0xfe30, 0xfe4f],
    [0xff00, 0xff60],
    [0xffe0, 0xffe6],
    [0x1f300, 0x1f64f],
    [0x1f900, 0x1f9ff],
    [0x20000, 0x3fffd],
];
function isWide(cp) {
    return WIDE_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
}
function padEnd(text, w) {
    return text + ' '.repeat(Math.max(0, w - displayWidth(text)));
}
function padStart(text, w) {
    return ' '.repeat(Math.max(0, w - displayWidth(text))) + text;
}
function clip(text, width) {
    return displayWidth(stripAnsi(text)) <= width ? text : truncateEnd(text, width);
}
function stripAnsi(text) {
    return text.replace(/\u001b\[[0-9;]*m/g, '');
}
function truncateMiddle(text, width) {
    if (displayWidth(text) <= width)
        return text;
    if (width <= 1)
        return '…'.slice(0, width);
    const suffix = SHORTENED_SUFFIX.exec(text)?.[1];
    if (suffix !== undefined && width >= 2 * suffix.length)
        return `${truncateMiddle(text.slice(0, -suffix.length), width - suffix.length)}${suffix}`;
    const chars = [...text];
    const keep = width - 1;
    const headWidth = Math.ceil(keep / 2);
    let head = '';
    for (const ch of chars) {
        if (displayWidth(head + ch) > headWidth)
            break;
        head += ch;
    }
    let tail = '';
    for (let i = chars.length - 1; i >= 0; i--) {
        const next = chars[i] + tail;
        if (displayWidth(head) + displayWidth(next) + 1 > width)
            break;
        tail = next;
    }
    return `${head}…${tail}`;
}
function truncateEnd(text, width) {
    if (displayWidth(text) <= width)
        return text;
    let out = '';
    for (const ch of text) {
        if (displayWidth(out + ch) + 1 > width)
            break;
        out += ch;
    }
    return `${out}…`;
}
function distinctFrom(keys) {
    const chars = keys.map((k) => [...k]);
    return chars.map((a, i) => {
        let longest = 0;
        chars.forEach((b, j) => {
            if (i === j || keys[i] === keys[j])
                return;
            let n = 0;
            while (n < a.length && n < b.length && a[n] === b[n])
                n++;
            if (n > longest)
                longest = n;
        });
        return longest;
    });
}
const WORD_BREAK = new Set(['/', ':', ' ', '.']);
function truncateDistinct(text, width, from) {
    if (displayWidth(text) <= width)
        return text;
    const chars = [...text];
    if (from <= 0 || from >= chars.length || width < 3)
        return truncateMiddle(text, width);
    let start = from;
    let word = from;
    while (word > 0 && !WORD_BREAK.has(chars[word - 1]))
        word--;
    const fits = (at) => displayWidth(chars.slice(at).join('')) + 2 <= width;
    if (fits(word) || !fits(from))
        start = word;
    const tail = chars.slice(start).join('');
    if (displayWidth(tail) + 1 <= width) {
        let head = '';
        for (const ch of chars.slice(0, start)) {
            if (displayWidth(head + ch) + 1 + displayWidth(tail) > width)
                break;
            head += ch;
        }
        return `${head}…${tail}`;
    }
    let head = '';
    for (const ch of chars.slice(0, Math.min(start, Math.max(1, Math.floor(width / 4))))) {
        if (displayWidth(head + ch) + 2 > width)
            break;
        head += ch;
    }
    return `${head}${truncateEnd(`…${tail}`, width - displayWidth(head))}`;
}
function indented(text, width, first, rest) {
    return wrap(text, Math.max(1, width - first.length), ' '.repeat(Math.max(0, rest.length - first.length))).map((line) => `${first}${line}`);
}
function wrap(text, width, indent = '') {
    const lines = [];
    let current = '';
    for (const word of text.split(/(?<=\S) (?=\S)/)) {
        const prefix = lines.length === 0 ? '' : indent;
        const candidate = current === '' ? `${prefix}${word}` : `${current} ${word}`;
        if (displayWidth(candidate) <= width) {
            current = candidate;
            continue;
        }
        if (current !== '')
            lines.push(current);
        current = truncateMiddle(`${indent}${word}`, width);
    }
    if (current !== '')
        lines.push(current);
    return lines;
}
const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
function superscript(n) {
    return [...String(n)].map((d) => SUPERSCRIPT_DIGITS[Number(d)] ?? d).join('');
}
function alignedTable(columns, rows, layout) {
    const widths = columns.map((column, i) => rows.reduce((w, row) => Math.max(w, displayWidth(row[i]?.text ?? '')), displayWidth(column.header)));
    const others = widths.reduce((sum, w, i) => (i === layout.flexColumn ? sum : sum + w), 0) + GAP.length * (columns.length - 1);
    const cap = layout.width === undefined ? DEFAULT_FLEX_WIDTH : Math.max(MIN_FLEX_WIDTH, layout.width - others);
    const flexWidth = rows.reduce((w, row) => {
        const keyWidth = displayWidth(row[layout.flexColumn]?.text ?? '');
        return keyWidth <= cap ? Math.max(w, keyWidth) : w;
    }, displayWidth(columns[layout.flexColumn]?.header ?? ''));
    widths[layout.flexColumn] = flexWidth;
    const pad = (text, i) => {
        const fill = ' '.repeat(Math.max(0, (widths[i] ?? 0) - displayWidth(text)));
        return columns[i]?.align === 'right' ? fill + text : text + fill;
    };
    const line = (cells, from, to) => cells
        .slice(from, to)
        .map((cell, j) => {
        const padded = pad(cell.text, from + j);
        return cell.paint ? cell.paint(padded) : padded;
    })
        .join(GAP);
    const out = [
        columns
            .map((c, i) => pad(c.header, i))
            .join(GAP)
            .trimEnd(),
    ];
    for (const cells of rows) {
        const flexCell = cells[layout.flexColumn];
        if (flexCell === undefined || displayWidth(flexCell.text) <= flexWidth) {
            out.push(line(cells, 0, cells.length).trimEnd());
            continue;
        }
        const before = line(cells, 0, layout.flexColumn);
        out.push(`${before}${before ? GAP : ''}${flexCell.text}`);
        const indent = widths.slice(0, layout.flexColumn + 1).reduce((sum, w) => sum + w + GAP.length, 0);
        out.push(`${' '.repeat(indent)}${line(cells, layout.flexColumn + 1, cells.length)}`.trimEnd());
    }
    return out;
}

export { GAP as G, MIN_FLEX_WIDTH as M, alignedTable as a, distinctFrom as b, clip as c, displayWidth as d, truncateEnd as e, truncateDistinct as f, padStart as g, indented as i, padEnd as p, superscript as s, truncateMiddle as t, wrap as w };
