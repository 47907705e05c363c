const DEVICE_SEGMENT = /^dev\d+$/;
/** The first `devN` segment of a key (`DEV_MEM/dev0/APP`, `dev3/matmul_v1`), and the key with it replaced by `*`. */
function splitDevice(key) {
    const segments = key.split('/');
    const i = segments.findIndex((s) => DEVICE_SEGMENT.test(s));
    if (i === -1)
        return { device: null, group: key };
    const device = segments[i];
    segments[i] = '*';
    return { device, group: segments.join('/') };
}
/** Device names the same way in every parser: `03`, `dev03`, `NPU:3` → `dev3`; null when it is not a device number. */
function deviceName(raw) {
    const text = String(raw).trim();
    const m = /^(?:dev|NPU:?|npu:?)?0*(\d+)$/.exec(text);
    if (m === null)
        return null;
    return `dev${Number(m[1])}`;
}

export { deviceName as d, splitDevice as s };
