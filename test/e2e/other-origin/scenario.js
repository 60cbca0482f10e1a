// A client on another origin, using the service the way any web page would: fetch with a JSON
// body (so the browser sends a preflight) and EventSource, under the browser's CORS rules.
// The service's URL comes in the query: /?api=http://127.0.0.1:8080
const api = new URL(location.href).searchParams.get('api');
const result = document.querySelector('#result');

/** Resolves with the first `type` event whose item passes `test`. */
function nextEvent(source, type, test = () => true) {
  return new Promise((resolve) => {
    const listener = (message) => {
      const data = JSON.parse(message.data);
      if (!test(data)) return;
      source.removeEventListener(type, listener);
      resolve({ id: message.lastEventId, data });
    };
    source.addEventListener(type, listener);
  });
}

function sendJson(method, path, body) {
  return fetch(`${api}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function run() {
  const checks = {};
  const source = new EventSource(`${api}/api/sse`);
  const snapshot = await nextEvent(source, 'snapshot');
  checks.snapshot = snapshot.data;

  const createdEvent = nextEvent(source, 'created', (todo) => todo.title === 'From afar');
  const created = await sendJson('POST', '/api/todos', { title: 'From afar' });
  const item = await created.json();
  checks.create = {
    status: created.status,
    item,
    location: created.headers.get('location'),
    // Sent by the server but not exposed to other origins: the browser must hide it.
    date: created.headers.get('date'),
    event: (await createdEvent).data,
  };

  const updatedEvent = nextEvent(source, 'updated', (todo) => todo.id === item.id);
  const updated = await sendJson('PUT', checks.create.location, {
    title: 'From afar, done',
    completed: true,
  });
  checks.update = { status: updated.status, item: await updated.json() };
  checks.update.event = (await updatedEvent).data;

  const deletedEvent = nextEvent(source, 'deleted', (todo) => todo.id === item.id);
  const deleted = await fetch(`${api}${checks.create.location}`, { method: 'DELETE' });
  checks.remove = { status: deleted.status, item: await deleted.json() };
  checks.remove.event = (await deletedEvent).data;

  // The page of the service sends no CORS headers: the browser must refuse to let us read it.
  checks.readingThePage = await fetch(`${api}/`).then(
    () => 'allowed',
    (error) => error.name,
  );
  return checks;
}

run().then(
  (checks) => {
    result.textContent = JSON.stringify(checks);
    result.dataset.done = 'ok';
  },
  (error) => {
    result.textContent = String(error?.stack ?? error);
    result.dataset.done = 'failed';
  },
);
