import type { Document, Element } from 'domhandler';
import type { ConvertResult, DocumentOptions, ImageMode, LinkMode, Warning } from '../types.js';
import type { ChosenContent } from './content-choice.js';
import { chooseContent, removeSelected } from './content-choice.js';
import { writeHtml } from './html-output.js';
import { linksElsewhere } from './links-elsewhere.js';
import type { MarkdownWriter } from './markdown.js';
import { SelectorBudget } from './selectors.js';
import type { StatsMap } from './stats.js';
import { writeText } from './text-output.js';

/**
 * The read options inside the HTML engine (issue 17), so htmlToMarkdown keeps reading as
 * its list of phases: selectors removed first, the content chosen, then the outputs the
 * caller asked for besides the Markdown (html, text, links, images).
 */
export class ReadSteering {
  readonly warnings: Warning[] = [];
  readonly modes: { imageMode?: ImageMode; linkMode?: LinkMode; cleanUrls?: boolean };
  private readonly budget = new SelectorBudget();

  constructor(private readonly options: DocumentOptions) {
    this.modes = {
      ...(options.imageMode ? { imageMode: options.imageMode } : {}),
      ...(options.linkMode ? { linkMode: options.linkMode } : {}),
      ...(options.cleanUrls === false ? { cleanUrls: false } : {}),
    };
  }

  /** `remove_selector`, on the raw document: before anything else reads it. */
  removeSelected(doc: Document): void {
    removeSelected(doc, this.options.removeSelectors ?? [], this.budget, this.warnings);
  }

  chooseContent(body: Element, stats: StatsMap, extract: () => Omit<ChosenContent, 'targeted'>): ChosenContent {
    const opts = {
      targetSelectors: this.options.targetSelectors ?? [],
      mainContent: this.options.mainContent !== false,
      budget: this.budget,
      stats,
      extract,
    };
    return chooseContent(body, opts, this.warnings);
  }

  /** The content length LOW_CONTENT judges: a short match of target_selector is what was asked for. */
  lowContentLength(content: ChosenContent): number {
    return content.targeted ? Number.POSITIVE_INFINITY : content.textLength;
  }

  /** The asked-for outputs besides the Markdown; `clean` is the engine's final text clean-up. */
  outputs(
    content: ChosenContent,
    writer: MarkdownWriter,
    body: Element,
    clean: (s: string) => string,
  ): Pick<ConvertResult, 'html' | 'text' | 'links' | 'linksElsewhere' | 'images'> {
    const out: Pick<ConvertResult, 'html' | 'text' | 'links' | 'linksElsewhere' | 'images'> = {};
    const { format } = this.options;
    if (format === 'html') out.html = clean(writeHtml(content.roots, { base: writer.base, drop: content.drop, ...this.modes }));
    if (format === 'text') out.text = clean(writeText(content.roots, { drop: content.drop, ...this.modes }));
    if (this.options.links) {
      out.links = [...writer.links.values()];
      out.linksElsewhere = linksElsewhere(body, writer.base, writer.links, this.options.cleanUrls !== false);
    }
    if (this.options.images) out.images = [...writer.images.values()];
    return out;
  }
}
