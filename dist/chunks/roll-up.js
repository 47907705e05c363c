function median(values) {
    const sorted = Float64Array.from(values).sort();
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
function rollUp(devices, values) {
    if (values.length === 0)
        return undefined;
    let min = values[0];
    let max = min;
    let worst = 0;
    for (let i = 1; i < values.length; i++) {
        const v = values[i];
        if (v < min)
            min = v;
        if (v > max) {
            max = v;
            worst = i;
        }
    }
    return { min, median: Math.round(median(values)), max, devices: values.length, worst: devices[worst] };
}

export { median as m, rollUp as r };
