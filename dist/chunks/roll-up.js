function median(values) {
    const sorted = Float64Array.from(values).sort();
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export { median as m };
