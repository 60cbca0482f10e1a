import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/hosts/node/file-assets.ts';
import { useE2e } from './support/e2e.ts';
import { eventually, type TodoPage } from './support/todo-page.ts';

const SCREENSHOT = `${PROJECT_ROOT}docs/screenshot.png`;
// The picture is tracked: a test run leaves it as it is unless asked to redraw it.
const UPDATE_SCREENSHOT = process.env['UPDATE_SCREENSHOT'] === '1';
const VIEWPORT = { width: 720, height: 600 };

/** What the picture shows, read from the page: the items, which are done, the filter. */
async function shown(todos: TodoPage) {
  return {
    titles: await todos.titles(),
    completed: await todos.completedStates(),
    count: await todos.count.textContent(),
    filter: await todos.selectedFilter.allTextContents(),
    listVisible: await todos.main.isVisible(),
    footerVisible: await todos.footer.isVisible(),
    connection: await todos.connection.textContent(),
    problem: await todos.problem.textContent(),
    editing: await todos.page.locator('.todo-list li.editing').count(),
  };
}

describe('the README screenshot', () => {
  const e2e = useE2e();

  it('shows the page with a few items, one of them completed', async () => {
    const todos = await e2e().openTodos();
    await todos.page.setViewportSize(VIEWPORT);
    await todos.add('Buy oat milk', 'Water the plants', 'Call the plumber', 'Book train tickets');
    await todos.toggle('Water the plants');
    await eventually(() => todos.count.textContent()).toBe('3 items left');
    // No hover or focus ring on the item just clicked: the page as it rests.
    await todos.page.mouse.move(0, 0);
    await todos.item('Water the plants').locator('.toggle').blur();

    const expected = {
      titles: ['Buy oat milk', 'Water the plants', 'Call the plumber', 'Book train tickets'],
      completed: [false, true, false, false],
      count: '3 items left',
      filter: ['All'],
      listVisible: true,
      footerVisible: true,
      connection: '',
      problem: '',
      editing: 0,
    };
    expect(await shown(todos)).toEqual(expected);
    const png = await todos.page.screenshot({ animations: 'disabled' });
    // The page still showed the same when the picture was taken: nothing changed it meanwhile.
    expect(await shown(todos)).toEqual(expected);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // The IHDR chunk: the picture is the whole viewport.
    expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual(VIEWPORT);
    if (UPDATE_SCREENSHOT) writeFileSync(SCREENSHOT, png);
  });
});
