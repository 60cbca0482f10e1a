// The layers of src/, lowest first: each may import only from the layers before it (and from
// itself), so the code runs one way; docs/layout.md draws them. `npm run lint` holds every
// import to them, type-only imports included, and refuses any cycle.
const LAYERS = [
  ['model', '^src/model/'],
  ['config', '^src/config\\.ts$'],
  ['http', '^src/http/'],
  ['store', '^src/store/'],
  ['storage', '^src/storage/'],
  ['live', '^src/live/'],
  ['lists', '^src/lists/'],
  ['api', '^src/api/'],
  ['app', '^src/app\\.ts$'],
  ['hosts', '^src/hosts/'],
];

const upward = LAYERS.slice(0, -1).map(([name, path], index) => ({
  name: `${name}-imports-no-layer-above`,
  comment: `${name} may import only ${
    LAYERS.slice(0, index)
      .map(([below]) => below)
      .join(', ') || 'itself'
  }.`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(index + 1).map(([, above]) => above) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle would let a layer reach above itself through another.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'hosts-apart',
      comment: 'Each host is a thin entry of its own: neither imports the other.',
      severity: 'error',
      from: { path: '^src/hosts/(node|workerd)/' },
      to: { path: '^src/hosts/', pathNot: '^src/hosts/$1/' },
    },
    {
      name: 'page-imports-model-only',
      comment: 'The page runs in the browser: it shares only model/ with the service.',
      severity: 'error',
      from: { path: '^src/page/' },
      to: { path: '^src/', pathNot: '^src/(page|model)/' },
    },
    {
      name: 'handler-is-web-standard',
      comment: 'Only a host imports Node or workerd: the handler runs on any web-standard host.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/hosts/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing cannot be checked.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^cloudflare:' },
    },
  ],
  options: {
    // swc reads type-only imports too: a type that reaches up is a layer that knows what is
    // above it.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/hosts/workerd/.*\\.d\\.ts$' },
  },
};
