// A plain page over the API: it lists the items and adds one. The live page replaces it.
const list = document.querySelector('#todos');
const form = document.querySelector('#new-todo');
const titleInput = document.querySelector('#title');
const status = document.querySelector('#status');

async function refresh() {
  const response = await fetch('/api/todos');
  const todos = await response.json();
  list.replaceChildren(
    ...todos.map((todo) => {
      const item = document.createElement('li');
      item.textContent = todo.title;
      if (todo.completed) item.className = 'completed';
      return item;
    }),
  );
  status.textContent = todos.length === 1 ? '1 item' : `${todos.length} items`;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const response = await fetch('/api/todos', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: titleInput.value }),
  });
  if (response.ok) {
    form.reset();
    await refresh();
  } else {
    status.textContent = (await response.json()).detail;
  }
});

refresh().catch(() => {
  status.textContent = 'The list could not be loaded.';
});
