import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/hosts/node/project-root.ts';
import { useE2e } from './support/e2e.ts';
import { eventually } from './support/todo-page.ts';

const SCREENSHOT = `${PROJECT_ROOT}docs/screenshot.png`;

describe('the README screenshot', () => {
  const e2e = useE2e();

  it('shows the page with a few items, one of them completed', async () => {
    const todos = await e2e().openTodos();
    await todos.page.setViewportSize({ width: 720, height: 600 });
    await todos.add('Buy oat milk', 'Water the plants', 'Call the plumber', 'Book train tickets');
    await todos.toggle('Water the plants');
    await eventually(() => todos.count.textContent()).toBe('3 items left');
    // No hover or focus ring on the item just clicked: the page as it rests.
    await todos.page.mouse.move(0, 0);
    await todos.item('Water the plants').locator('.toggle').blur();

    mkdirSync(`${PROJECT_ROOT}docs`, { recursive: true });
    const png = await todos.page.screenshot({ path: SCREENSHOT, animations: 'disabled' });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });
});
