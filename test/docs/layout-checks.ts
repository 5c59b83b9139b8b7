// Layout oracles run inside a page (page.evaluate) by test/docs/render.test.ts, each listing
// what it finds wrong (empty: nothing). Self-contained functions: Playwright sends their text.

// The page's globals, as these functions meet them there (the project compiles without the DOM library).
type Dom = any;
declare const document: Dom;
declare const getComputedStyle: (element: Dom) => { overflowX: string };
declare const NodeFilter: { SHOW_TEXT: number };
declare const window: Dom;
declare const innerHeight: number;

/** Elements that make the page wider than its viewport (none inside a box that scrolls or clips sideways). */
export function overflow(): string[] {
  const width = document.documentElement.clientWidth;
  const found: string[] = [];
  if (document.documentElement.scrollWidth > width + 1) found.push(`page ${document.documentElement.scrollWidth} px wide in ${width} px`);
  const contained = (element: Dom) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement) if (getComputedStyle(parent).overflowX !== "visible") return true;
    return false;
  };
  for (const element of document.querySelectorAll("body *")) {
    const box = element.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1 && !contained(element)) found.push(`${element.tagName.toLowerCase()}.${element.className}: ${Math.round(box.right)} px`);
    if (found.length > 10) break;
  }
  return found;
}

/**
 * Words of inline code broken across lines where no word ends: a word of code may break only
 * at a space, and a word longer than a phone's line also after `/`, `_` or `.` or where a
 * capital starts a word (camelCase). Each character's line is read from a Range over it.
 */
export function codeBreaks(): string[] {
  const found: string[] = [];
  for (const code of document.querySelectorAll("code")) {
    if (code.closest("pre") || !code.offsetParent) continue;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    // Every character with the top of its line (a space at a line's end has no box: null).
    const chars: { char: string; top: number | null }[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        chars.push({ char: text[i]!, top: rect ? Math.round(rect.top) : null });
      }
    }
    const boxed = chars.map((c, i) => ({ ...c, i })).filter((c) => c.top !== null && c.char.trim() !== "");
    for (let n = 1; n < boxed.length; n++) {
      const [before, after] = [boxed[n - 1]!, boxed[n]!];
      if (after.top! <= before.top! + 2) continue;
      // A space between them: the line broke where the code has a space.
      if (after.i - before.i > 1) continue;
      const allowed = /[/_.]/.test(before.char) || (/[a-z0-9]/.test(before.char) && /[A-Z]/.test(after.char));
      const word = (code.textContent ?? "").split(/\s+/).find((w: string) => w.includes(before.char + after.char)) ?? "";
      if (!allowed || word.length <= 28) found.push(`"${code.textContent}" breaks between "${before.char}" and "${after.char}"`);
      if (found.length > 10) return found;
    }
  }
  return found;
}

/**
 * Response statuses a reader cannot see by scrolling the page down: outside the screen's
 * width, or cut off by a box that would need scrolling sideways (a narrow tab strip).
 */
export function statusesHidden(): string[] {
  const found: string[] = [];
  const width = document.documentElement.clientWidth;
  for (const status of document.querySelectorAll(".responses .status")) {
    // The page scrolled down to it, nothing scrolled sideways.
    window.scrollTo(0, window.scrollY + status.getBoundingClientRect().top - innerHeight / 2);
    const box = status.getBoundingClientRect();
    let clipped = box.width === 0 || box.left < 0 || box.right > width;
    for (let parent = status.parentElement; parent && !clipped; parent = parent.parentElement) {
      if (getComputedStyle(parent).overflowX === "visible") continue;
      const frame = parent.getBoundingClientRect();
      clipped = box.left < frame.left || box.right > frame.right;
    }
    const atPoint = clipped ? null : document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (clipped || !(atPoint === status || status.contains(atPoint))) found.push(`status ${status.textContent} at ${Math.round(box.left)}–${Math.round(box.right)} px`);
  }
  return found;
}
