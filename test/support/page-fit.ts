import type { Page } from 'playwright-core';

/** The page does not scroll sideways at the viewport's width. */
export const noHorizontalScroll = async (page: Page): Promise<boolean> =>
  (await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')) === true;

/** Every element of `selector` lies within the viewport's width (and there is at least one). */
export async function withinWidth(page: Page, selector: string, width: number): Promise<boolean> {
  const boxes = await page.locator(selector).evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return [r.left, r.right];
    }),
  );
  return boxes.length > 0 && boxes.every(([left, right]) => left! >= 0 && right! <= width);
}
