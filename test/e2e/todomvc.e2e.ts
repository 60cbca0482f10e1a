import { describe, expect, it } from 'vitest';
import { useE2e } from './support/e2e.ts';
import { eventually } from './support/todo-page.ts';

interface TodoJson {
  id: string;
  title: string;
  completed: boolean;
}

describe('the page, by the TodoMVC app specification', () => {
  const e2e = useE2e();

  /** The list as the server holds it. */
  const serverList = async () =>
    (await (await e2e().service.api('/api/todos')).json()) as TodoJson[];
  const serverTitles = async () => (await serverList()).map((todo) => todo.title);
  const requestsMade = (method: string) =>
    e2e()
      .service.requests()
      .filter((request) => request.method === method);

  it('focuses the new-todo field on load, with its placeholder', async () => {
    const todos = await e2e().openTodos();
    expect(await todos.newTodo.getAttribute('placeholder')).toBe('What needs to be done?');
    expect(await todos.newTodo.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await todos.page.locator('header.header h1').textContent()).toBe('todos');
  });

  it('adds the trimmed title on Enter and clears the field', async () => {
    const todos = await e2e().openTodos();
    await todos.newTodo.fill('   Buy milk  ');
    await todos.newTodo.press('Enter');
    await eventually(() => todos.titles()).toEqual(['Buy milk']);
    expect(await todos.newTodo.inputValue()).toBe('');
    expect(await serverTitles()).toEqual(['Buy milk']);
  });

  it('adds nothing for a title of only spaces', async () => {
    const todos = await e2e().openTodos();
    await todos.newTodo.fill('    ');
    await todos.newTodo.press('Enter');
    await todos.add('Real');
    expect(await todos.titles()).toEqual(['Real']);
    await eventually(() => requestsMade('POST')).toHaveLength(1);
  });

  it('hides the main section and the footer while the list is empty', async () => {
    const todos = await e2e().openTodos();
    expect([await todos.main.isHidden(), await todos.footer.isHidden()]).toEqual([true, true]);
    await todos.add('Only one');
    expect([await todos.main.isVisible(), await todos.footer.isVisible()]).toEqual([true, true]);
    await todos.destroy('Only one');
    await eventually(() => todos.main.isHidden()).toBe(true);
    expect(await todos.footer.isHidden()).toBe(true);
  });

  it('marks an item completed, and active again, with its checkbox', async () => {
    const todos = await e2e().openTodos();
    await todos.add('Water plants', 'Feed cat');
    await todos.toggle('Water plants');
    await eventually(() => todos.completedStates()).toEqual([true, false]);
    expect(await todos.item('Water plants').locator('.toggle').isChecked()).toBe(true);
    expect((await serverList()).map((todo) => todo.completed)).toEqual([true, false]);
    await todos.toggle('Water plants');
    await eventually(() => todos.completedStates()).toEqual([false, false]);
  });

  it('marks an item completed with Space on its focused checkbox', async () => {
    const todos = await e2e().openTodos();
    await todos.add('Water plants');
    await todos.item('Water plants').locator('.toggle').press('Space');
    await eventually(() => todos.completedStates()).toEqual([true]);
    expect((await serverList()).map((todo) => todo.completed)).toEqual([true]);
  });

  it('deletes an item with its destroy button', async () => {
    const todos = await e2e().openTodos();
    await todos.add('Keep', 'Drop');
    await todos.destroy('Drop');
    await eventually(() => todos.titles()).toEqual(['Keep']);
    expect(await serverTitles()).toEqual(['Keep']);
  });

  it('edits on double-click: the field holds the title and has the focus', async () => {
    const todos = await e2e().openTodos();
    await todos.add('Call mum', 'Call dad');
    const edit = await todos.edit('Call mum');
    expect(await edit.inputValue()).toBe('Call mum');
    expect(await edit.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await todos.items.evaluateAll((items) => items.map((li) => li.className))).toEqual([
      'editing',
      '',
    ]);
    expect(await todos.item('Call mum').locator('.view').isHidden()).toBe(true);
  });

  it('saves the trimmed edit on Enter', async () => {
    const todos = await e2e().openTodos();
    await todos.add('Call mum');
    const edit = await todos.edit('Call mum');
    await edit.fill('  Call mum back  ');
    await edit.press('Enter');
    await eventually(() => todos.titles()).toEqual(['Call mum back']);
    expect(await todos.items.first().getAttribute('class')).toBe('');
    expect(await serverTitles()).toEqual(['Call mum back']);
  });

  it('saves the edit when the field loses the focus', async () => {
    const todos = await e2e().openTodos();
    await todos.add('Read');
    const edit = await todos.edit('Read');
    await edit.fill('Read a book');
    await edit.blur();
    await eventually(() => todos.titles()).toEqual(['Read a book']);
    expect(await serverTitles()).toEqual(['Read a book']);
  });

  it('cancels the edit on Escape', async () => {
    const todos = await e2e().openTodos();
    await todos.add('Stay as I am', 'Other');
    const edit = await todos.edit('Stay as I am');
    await edit.fill('Changed');
    await edit.press('Escape');
    expect(await todos.page.locator('.todo-list li.editing').count()).toBe(0);
    expect(await todos.titles()).toEqual(['Stay as I am', 'Other']);
    // A change the server has answered since shows that Escape sent nothing before it.
    await todos.toggle('Other');
    await eventually(() => todos.completedStates()).toEqual([false, true]);
    await eventually(() => requestsMade('PUT')).toHaveLength(1);
    expect(await serverTitles()).toEqual(['Stay as I am', 'Other']);
  });

  it('deletes the item when its edit is saved empty', async () => {
    const todos = await e2e().openTodos();
    await todos.add('Soon gone', 'Stays');
    const edit = await todos.edit('Soon gone');
    await edit.fill('   ');
    await edit.press('Enter');
    await eventually(() => todos.titles()).toEqual(['Stays']);
    expect(await serverTitles()).toEqual(['Stays']);
  });

  it('toggle-all completes every item, then makes them all active again', async () => {
    const todos = await e2e().openTodos();
    await todos.add('One', 'Two', 'Three');
    await todos.toggle('Two');
    await eventually(() => todos.completedStates()).toEqual([false, true, false]);
    expect(await todos.toggleAll.isChecked()).toBe(false);

    await todos.page.locator('label[for="toggle-all"]').click();
    await eventually(() => todos.completedStates()).toEqual([true, true, true]);
    expect(await todos.toggleAll.isChecked()).toBe(true);

    await todos.page.locator('label[for="toggle-all"]').click();
    await eventually(() => todos.completedStates()).toEqual([false, false, false]);
    expect(await todos.toggleAll.isChecked()).toBe(false);
  });

  it('checks toggle-all once every item is completed, one by one', async () => {
    const todos = await e2e().openTodos();
    await todos.add('One', 'Two');
    await todos.toggle('One');
    await eventually(() => todos.completedStates()).toEqual([true, false]);
    expect(await todos.toggleAll.isChecked()).toBe(false);
    await todos.toggle('Two');
    await eventually(() => todos.toggleAll.isChecked()).toBe(true);
    await todos.toggle('One');
    await eventually(() => todos.toggleAll.isChecked()).toBe(false);
  });

  it('counts the active items, as "1 item left" or "N items left"', async () => {
    const todos = await e2e().openTodos();
    await todos.add('One');
    expect(await todos.count.innerHTML()).toBe('<strong>1</strong> item left');
    await todos.add('Two');
    expect(await todos.count.innerHTML()).toBe('<strong>2</strong> items left');
    await todos.page.locator('label[for="toggle-all"]').click();
    await eventually(() => todos.count.innerHTML()).toBe('<strong>0</strong> items left');
  });

  it('filters by the URL hash: all, active, completed', async () => {
    const todos = await e2e().openTodos();
    await todos.add('Open', 'Done');
    await todos.toggle('Done');
    await eventually(() => todos.completedStates()).toEqual([false, true]);

    await todos.page.locator('.filters a', { hasText: 'Active' }).click();
    await eventually(() => todos.titles()).toEqual(['Open']);
    expect(new URL(todos.page.url()).hash).toBe('#/active');
    expect(await todos.selectedFilter.getAttribute('href')).toBe('#/active');

    await todos.page.locator('.filters a', { hasText: 'Completed' }).click();
    await eventually(() => todos.titles()).toEqual(['Done']);
    expect(await todos.selectedFilter.getAttribute('href')).toBe('#/completed');

    await todos.page.goBack();
    await eventually(() => todos.titles()).toEqual(['Open']);

    await todos.page.locator('.filters a', { hasText: 'All' }).click();
    await eventually(() => todos.titles()).toEqual(['Open', 'Done']);
    expect(await todos.selectedFilter.getAttribute('href')).toBe('#/');
  });

  it('clears the completed items, and offers to only while there are some', async () => {
    const todos = await e2e().openTodos();
    await todos.add('Keep me', 'Done one', 'Done two');
    expect(await todos.clearCompleted.isHidden()).toBe(true);
    await todos.toggle('Done one');
    await todos.toggle('Done two');
    // The page clears what it has seen completed: wait until it has seen both.
    await eventually(() => todos.completedStates()).toEqual([false, true, true]);
    expect(await todos.clearCompleted.isVisible()).toBe(true);

    await todos.clearCompleted.click();
    await eventually(() => todos.titles()).toEqual(['Keep me']);
    expect(await todos.clearCompleted.isHidden()).toBe(true);
    expect(await serverTitles()).toEqual(['Keep me']);
  });

  it('shows titles as text, never as markup', async () => {
    const todos = await e2e().openTodos();
    const title = '<img src=x onerror="document.title=1"><b>bold</b>';
    await todos.add(title);
    expect(await todos.titles()).toEqual([title]);
    expect(await todos.page.locator('.todo-list img, .todo-list b').count()).toBe(0);
  });

  it("shows the problem's detail when the service refuses a change", async () => {
    const todos = await e2e().openTodos();
    const refused = `/api/todos`;
    e2e().problems.allow(
      (problem) =>
        new URL(problem.url).pathname === refused &&
        ((problem.kind === 'error response' && problem.text === '400') ||
          (problem.kind === 'console error' && problem.text.includes('status of 400'))),
    );
    const tooLong = 'x'.repeat(1001);
    await todos.newTodo.fill(tooLong);
    await todos.newTodo.press('Enter');
    await eventually(() => todos.problem.textContent()).toMatch(/title/i);
    expect(await todos.problem.getAttribute('role')).toBe('alert');
    // The title comes back, so the user can shorten it rather than type it again.
    expect(await todos.newTodo.inputValue()).toBe(tooLong);
    expect(await todos.titles()).toEqual([]);

    await todos.newTodo.fill('Short');
    await todos.newTodo.press('Enter');
    await eventually(() => todos.problem.textContent()).toBe('');
  });
});
