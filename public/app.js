// The page's entry is /build/page/main.js, built from src/page/. This file only stays while the
// conformance suite names /app.js as a sample script; it loads the same page.
import './build/page/main.js';
