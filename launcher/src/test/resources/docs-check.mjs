// Opens /docs (Swagger UI from the jar) in Debian's Chromium with playwright-core, expands
// POST /verify/schema, presses "Try it out" and "Execute" with the example body the page offers
// (the sample invoice), and prints as JSON what came back and anything the browser complained of.
// usage: node docs-check.mjs BASE_URL SCREENSHOT_DIR
import { chromium } from 'playwright-core';

const [baseUrl, screenshotDir] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const seen = { consoleErrors: [], requests: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('console', m => { if (m.type() === 'error') seen.consoleErrors.push(m.text()); });
  page.on('pageerror', e => seen.consoleErrors.push(String(e)));
  page.on('response', r => { if (r.status() >= 400) seen.consoleErrors.push(r.status() + ' ' + r.url()); });
  page.on('request', r => seen.requests.push(new URL(r.url()).host));
  await page.goto(baseUrl + '/docs');
  const operation = '#operations-verification-verifySchema';
  await page.waitForSelector(operation, { timeout: 30000 });
  seen.title = await page.textContent('.info .title');
  seen.operations = await page.$$eval('.opblock-summary-path', els => els.map(e => e.textContent.trim()));
  await page.click(operation + ' .opblock-summary');
  await page.click(operation + ' .try-out__btn');
  seen.exampleBody = await page.inputValue(operation + ' textarea.body-param__text');
  await page.click(operation + ' .execute');
  const row = operation + ' .live-responses-table tbody tr.response';
  await page.waitForSelector(row, { timeout: 60000 });
  seen.status = (await page.textContent(row + ' .response-col_status')).trim();
  seen.responseBody = await page.textContent(row + ' .response-col_description pre');
  await page.screenshot({ path: screenshotDir + '/docs-try-it-out.png', fullPage: false });
} catch (e) {
  seen.failure = String(e);
} finally {
  await browser.close();
}
seen.requests = [...new Set(seen.requests)];
console.log(JSON.stringify(seen));
