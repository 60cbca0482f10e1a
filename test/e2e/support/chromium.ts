import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium unless `CHROMIUM_PATH` names another; `.ci/run` installs it when missing. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
