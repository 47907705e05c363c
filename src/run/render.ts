// The pipeline's render step for both entries: the check's one report view, and the report files asked for from it.
import type { GateReport } from '../gate/types.js';
import type { Trends } from '../history/trends.js';
import type { Snapshot } from '../model/snapshot.js';
import type { JunitContext } from '../report/junit.js';
import type { MarkdownOptions } from '../report/markdown.js';
import { buildReportView, type ReportView } from '../report/view.js';

/** A report file the entry writes with its own wording of a failure (a flag, an Action input). */
export type RenderedFormat = 'markdown' | 'html' | 'junit';

/** One typed request for the render step, whichever entry makes it. */
export interface RenderRequest {
  report: GateReport;
  /** The default branch's trends, drawn in every format; undefined without a history. */
  trends: Trends | undefined;
  /** This run's timelines: the HTML report draws the allocator traces per device. */
  series?: Snapshot['series'];
  /** The Markdown as this entry words it (its limit, links, how-to); undefined when nothing reads it. */
  markdown: MarkdownOptions | undefined;
  /** The files asked for, written in this order; a format not asked for is not rendered. */
  files: {
    json?: string;
    markdown?: string;
    html?: string;
    junit?: { file: string; context: JunitContext };
  };
  /** Writes one rendered file (the JSON report is streamed to its file here instead). */
  write(format: RenderedFormat, file: string, text: string): Promise<void>;
}

export interface Rendered {
  /** The one view of this check: the terminal and the review comment format it too. */
  view: ReportView;
  /** The Markdown rendered with the request's options, when asked for. */
  markdown: string | undefined;
}

export async function render(request: RenderRequest): Promise<Rendered> {
  const { report, files } = request;
  const view = buildReportView(report, { trends: request.trends });
  // Each renderer is loaded when its format is asked for: a terminal-only check loads none of them.
  if (files.json !== undefined) await (await import('../report/json.js')).writeJsonReport(files.json, report);
  const markdown =
    request.markdown === undefined
      ? undefined
      : (await import('../report/markdown.js')).renderMarkdown(view, request.markdown);
  if (files.markdown !== undefined && markdown !== undefined) await request.write('markdown', files.markdown, markdown);
  if (files.html !== undefined) {
    const { renderHtml } = await import('../report/html.js');
    const series = request.series;
    await request.write('html', files.html, renderHtml(view, series !== undefined ? { series } : {}));
  }
  if (files.junit !== undefined) {
    const { renderJunit } = await import('../report/junit.js');
    await request.write('junit', files.junit.file, renderJunit(view, files.junit.context));
  }
  return { view, markdown };
}
