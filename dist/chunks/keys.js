function splitDevice(key) {
    if (!findDeviceSegment(key, bounds))
        return { device: null, group: key };
    const { start, end } = bounds;
    return { device: key.slice(start, end), group: `${key.slice(0, start)}*${key.slice(end)}` };
}
const bounds = { start: 0, end: 0 };
function findDeviceSegment(key, out) {
    let start = 0;
    while (start <= key.length) {
        let end = key.indexOf('/', start);
        if (end === -1)
            end = key.length;
        if (isDeviceSegment(key, start, end)) {
            out.start = start;
            out.end = end;
            return true;
        }
        start = end + 1;
    }
    return false;
}
function isDeviceSegment(key, start, end) {
    if (end - start < 4 || !key.startsWith('dev', start))
        return false;
    for (let i = start + 3; i < end; i++) {
        const c = key.charCodeAt(i);
        if (c < 48 || c > 57)
            return false;
    }
    return true;
}
function deviceName(raw) {
    const text = String(raw).trim();
    const m = /^(?:dev|NPU:?|npu:?)?0*(\d{1,9})$/.exec(text);
    if (m === null)
        return null;
    return `dev${Number(m[1])}`;
}

export { deviceName as d, findDeviceSegment as f, splitDevice as s };
