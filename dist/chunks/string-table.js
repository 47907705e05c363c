function hashText(text, from = 0, to = text.length) {
    let h = HASH_START;
    for (let k = from; k < to; k++)
        h = Math.imul(h ^ text.charCodeAt(k), HASH_PRIME);
    return h | 0;
}
function hashSpliced(text, start, end, mark) {
    let h = HASH_START;
    for (let k = 0; k < start; k++)
        h = Math.imul(h ^ text.charCodeAt(k), HASH_PRIME);
    h = Math.imul(h ^ mark, HASH_PRIME);
    for (let k = end; k < text.length; k++)
        h = Math.imul(h ^ text.charCodeAt(k), HASH_PRIME);
    return h | 0;
}
const HASH_START = 0x811c9dc5;
const HASH_PRIME = 0x01000193;
class StringTable {
    size = 0;
    slots = new Int32Array(64);
    hashes = new Int32Array(32);
    codes = new Uint16Array(1024);
    starts = new Int32Array(33);
    indexOf(text, from = 0, to = text.length, hash = hashText(text, from, to)) {
        const { slots, hashes } = this;
        const mask = slots.length - 1;
        for (let slot = hash & mask, found = slots[slot]; found !== 0; found = slots[(slot = (slot + 1) & mask)]) {
            const e = found - 1;
            if (hashes[e] === (hash | 0) && this.holds(e, text, from, to))
                return e;
        }
        return -1;
    }
    indexOfSpliced(text, start, end, mark, hash = hashSpliced(text, start, end, mark)) {
        const { slots, hashes } = this;
        const mask = slots.length - 1;
        for (let slot = hash & mask, found = slots[slot]; found !== 0; found = slots[(slot = (slot + 1) & mask)]) {
            const e = found - 1;
            if (hashes[e] === (hash | 0) && this.holdsSpliced(e, text, start, end, mark))
                return e;
        }
        return -1;
    }
    add(text, from = 0, to = text.length, hash = hashText(text, from, to)) {
        const e = this.reserve(hash, to - from);
        const codes = this.codes;
        for (let k = from, c = this.starts[e]; k < to; k++, c++)
            codes[c] = text.charCodeAt(k);
        return e;
    }
    addSpliced(text, start, end, mark, hash = hashSpliced(text, start, end, mark)) {
        const e = this.reserve(hash, text.length - end + start + 1);
        const codes = this.codes;
        let c = this.starts[e];
        for (let k = 0; k < start; k++)
            codes[c++] = text.charCodeAt(k);
        codes[c++] = mark;
        for (let k = end; k < text.length; k++)
            codes[c++] = text.charCodeAt(k);
        return e;
    }
    intern(text) {
        const hash = hashText(text);
        const e = this.indexOf(text, 0, text.length, hash);
        return e !== -1 ? e : this.add(text, 0, text.length, hash);
    }
    text(e) {
        const from = this.starts[e];
        const to = this.starts[e + 1];
        let out = '';
        for (let k = from; k < to; k += 8192)
            out += String.fromCharCode(...this.codes.subarray(k, Math.min(to, k + 8192)));
        return out;
    }
    length(e) {
        return this.starts[e + 1] - this.starts[e];
    }
    codeAt(e, k) {
        return this.codes[this.starts[e] + k];
    }
    holds(e, text, from, to) {
        const at = this.starts[e];
        if (this.starts[e + 1] - at !== to - from)
            return false;
        const codes = this.codes;
        for (let k = from, c = at; k < to; k++, c++)
            if (text.charCodeAt(k) !== codes[c])
                return false;
        return true;
    }
    holdsSpliced(e, text, start, end, mark) {
        let c = this.starts[e];
        if (this.starts[e + 1] - c !== text.length - end + start + 1)
            return false;
        const codes = this.codes;
        for (let k = 0; k < start; k++, c++)
            if (text.charCodeAt(k) !== codes[c])
                return false;
        if (codes[c++] !== mark)
            return false;
        for (let k = end; k < text.length; k++, c++)
            if (text.charCodeAt(k) !== codes[c])
                return false;
        return true;
    }
    reserve(hash, length) {
        const e = this.size++;
        if (e + 1 >= this.hashes.length) {
            this.hashes = widened(this.hashes, this.hashes.length * 2);
            this.starts = widened(this.starts, this.hashes.length + 1);
        }
        const from = this.starts[e];
        if (from + length > this.codes.length)
            this.codes = widened(this.codes, Math.max(this.codes.length * 2, from + length));
        this.starts[e + 1] = from + length;
        this.hashes[e] = hash;
        if (this.size * 2 > this.slots.length)
            this.grow();
        else
            this.place(e);
        return e;
    }
    place(e) {
        const slots = this.slots;
        const mask = slots.length - 1;
        let slot = this.hashes[e] & mask;
        while (slots[slot] !== 0)
            slot = (slot + 1) & mask;
        slots[slot] = e + 1;
    }
    grow() {
        this.slots = new Int32Array(this.slots.length * 2);
        for (let e = 0; e < this.size; e++)
            this.place(e);
    }
}
function widened(a, length) {
    const wider = (a instanceof Int32Array ? new Int32Array(length) : new Uint16Array(length));
    wider.set(a);
    return wider;
}

export { StringTable as S, hashSpliced as a, hashText as h };
