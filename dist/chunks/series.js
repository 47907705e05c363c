const MAX_POINTS = 200;
class SeriesBuilder {
    axis;
    width = 1;
    buckets = new Map();
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
        while (this.width < series.width)
            this.coarsenOnce();
        for (const [x, y] of series.points)
            this.add(x, y);
    }
    toSeries() {
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

export { MAX_POINTS as M, SeriesBuilder as S };
