const MAX_POINTS = 200;
class SeriesBuilder {
    axis;
    width = 1;
    buckets = new Map();
    whole = null;
    constructor(axis) {
        this.axis = axis;
    }
    add(x, y) {
        if (!Number.isFinite(x) || !Number.isFinite(y))
            return;
        const bucket = Math.floor(x / this.width);
        const prev = this.buckets.get(bucket);
        if (prev === undefined || y > prev) {
            this.buckets.set(bucket, y);
            if (prev === undefined && this.buckets.size > MAX_POINTS)
                this.coarsen();
        }
    }
    addSeries(series) {
        if (series.axis !== this.axis)
            throw new Error(`cannot merge a ${series.axis} series into a ${this.axis} series`);
        if (series.axis === 'trace') {
            if (this.whole === null || wholeOrder(series, this.whole) > 0)
                this.whole = { axis: series.axis, width: series.width, points: series.points.map(([x, y]) => [x, y]) };
            return;
        }
        while (this.width < series.width)
            this.coarsenOnce();
        for (const [x, y] of series.points)
            this.add(x, y);
    }
    toSeries() {
        if (this.whole !== null)
            return { axis: this.whole.axis, width: this.whole.width, points: this.whole.points.map(([x, y]) => [x, y]) };
        const points = [...this.buckets]
            .sort((a, b) => a[0] - b[0])
            .map(([bucket, y]) => [bucket * this.width, y]);
        return { axis: this.axis, width: this.width, points };
    }
    coarsen() {
        while (this.buckets.size > MAX_POINTS)
            this.coarsenOnce();
    }
    coarsenOnce() {
        const next = new Map();
        for (const [bucket, y] of this.buckets) {
            const b = Math.floor(bucket / 2);
            const prev = next.get(b);
            if (prev === undefined || y > prev)
                next.set(b, y);
        }
        this.width *= 2;
        this.buckets.clear();
        for (const [b, y] of next)
            this.buckets.set(b, y);
    }
}
function wholeOrder(a, b) {
    const peak = (s) => s.points.reduce((m, p) => Math.max(m, p[1]), -Infinity);
    const last = (s) => (s.points.length === 0 ? 0 : s.points[s.points.length - 1][0] + s.width);
    const ta = JSON.stringify(a.points);
    const tb = JSON.stringify(b.points);
    return peak(a) - peak(b) || last(a) - last(b) || a.width - b.width || (ta < tb ? -1 : ta > tb ? 1 : 0);
}

export { MAX_POINTS as M, SeriesBuilder as S };
