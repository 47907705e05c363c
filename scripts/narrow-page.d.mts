// Types of scripts/narrow-page.mjs, so the TypeScript browser tests can import it.
export declare const NARROWEST_WINDOW: number;
export declare function atWidth(html: string, width: number, height?: number): string;
