// Drives the dashboard in Debian's Chromium with playwright-core and prints what a person would see,
// as JSON, for DashboardIT to assert on. Usage:
//   node dashboard-check.mjs BASE_URL AGENT_TO_OPEN REQUEST_FILE SCREENSHOT_DIR OPERATOR_TOKEN
// First as anyone (the public leaderboard, no receipts), then with the operator token pasted.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';

const [baseUrl, agent, requestFile, screenshotDir, operatorToken] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  // PLATFORM-NOTES: as root, and without the background-networking flags Chromium floods the closed network.
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const seen = {};
let consoleErrors = [];
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  consoleErrors = seen.consoleErrors = [];
  page.on('console', m => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', e => consoleErrors.push(String(e)));
  const requested = [];
  page.on('request', r => requested.push(r.url()));
  page.on('response', r => { if (r.status() >= 400) consoleErrors.push(r.status() + ' ' + r.url()); });

  await page.goto(baseUrl + '/dashboard');
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.waitForSelector('#leaderboard tbody tr', { timeout: 30000 });
  seen.keysStatus = await page.textContent('#keys-status');
  seen.leaderboard = await page.$$eval('#leaderboard tbody tr', rows => rows.map(r => ({
    agent: r.dataset.agent,
    cells: [...r.children].map(c => c.textContent.trim()),
  })));
  await page.screenshot({ path: screenshotDir + '/dashboard-leaderboard.png', fullPage: true });

  // Open the agent the way a person would: click its name. Without a token: scores, no receipts.
  await page.click(`#leaderboard tr[data-agent="${agent}"] a`);
  await page.waitForFunction(a => document.getElementById('agent-title').textContent === a, agent, { timeout: 30000 });
  await page.waitForSelector('#agent-chart circle', { timeout: 30000 });
  seen.publicView = {
    receiptRows: await page.$$eval('#agent-receipts tbody tr', rows => rows.length),
    lockedShown: await page.isVisible('#receipts-locked'),
    feedShown: await page.isVisible('#feed'),
    text: await page.evaluate(() => document.documentElement.outerHTML),
    receiptRequests: requested.filter(u => u.includes('/receipts')),
  };
  await page.screenshot({ path: screenshotDir + '/dashboard-public.png', fullPage: true });

  // An operator pastes a token: the receipts appear, each checked in the page.
  await page.fill('#token-input', operatorToken);
  await page.click('#token-form button[type="submit"]');
  await page.waitForSelector('#agent-receipts tbody tr td.signature', { timeout: 30000 });
  seen.agentTitle = await page.textContent('#agent-title');
  seen.chartPoints = await page.$$eval('#agent-chart circle', c => c.length);
  seen.summaryCards = await page.$$eval('#agent-summary .card', cards => cards.map(c => c.textContent.trim()));
  seen.decayedLine = await page.$$eval('#agent-chart polyline.decayed', l => l.length);
  seen.receipts = await page.$$eval('#agent-receipts tbody tr[data-verification-id]', rows => rows.map(r => ({
    id: r.dataset.verificationId,
    result: r.children[2].textContent.trim(),
    signature: r.querySelector('td.signature').textContent.trim(),
  })));
  await page.screenshot({ path: screenshotDir + '/dashboard-agent.png', fullPage: true });

  // The in-browser check is real: the same function refuses a receipt with one value changed.
  seen.tamper = await page.evaluate(async a => {
    const body = await (await fetch('/agents/' + encodeURIComponent(a) + '/receipts',
      { headers: { Authorization: 'Bearer ' + sessionStorage.getItem('proofline.operatorToken') } })).json();
    const original = body.receipts[0];
    const tampered = JSON.parse(JSON.stringify(original));
    tampered.result = tampered.result === 'pass' ? 'fail' : 'pass';
    const otherKey = JSON.parse(JSON.stringify(original));
    otherKey.attestation.key_version = 'v0-unknown';
    return {
      original: await window.proofline.verifyReceipt(original),
      tampered: await window.proofline.verifyReceipt(tampered),
      unknownKey: await window.proofline.verifyReceipt(otherKey),
    };
  }, agent);

  // The live feed: publish one more request while the page is open and watch it arrive, verified.
  await page.waitForFunction(() => document.getElementById('feed-status').textContent === 'feed: live', null, { timeout: 15000 });
  const response = await fetch(baseUrl + '/verify/schema', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: readFileSync(requestFile, 'utf8'),
  });
  const receipt = await response.json();
  seen.liveId = receipt.verification_id;
  const item = await page.waitForSelector(`#feed-list li[data-verification-id="${receipt.verification_id}"]`, { timeout: 30000 });
  seen.liveItem = (await item.textContent()).trim();
  seen.liveVerified = (await item.$('.verified')) !== null;

  // Opening one agent and then another before the first answered shows the second, and keeps
  // showing it: the first one's late answer (held back here) draws nothing.
  const slow = seen.leaderboard.map(r => r.agent).find(a => a !== agent);
  const slowReputation = u => u.pathname === '/reputation/' + encodeURIComponent(slow);
  let slowReads = 0;
  await page.route(slowReputation, async r => {
    slowReads++;
    await new Promise(resolve => setTimeout(resolve, 1500));
    await r.continue();
  });
  await page.evaluate(a => { location.hash = '#/agent/' + encodeURIComponent(a); }, slow);
  await page.waitForTimeout(100);
  await page.evaluate(a => { location.hash = '#/agent/' + encodeURIComponent(a); }, agent);
  await page.waitForFunction(a => document.getElementById('agent-title').textContent === a, agent, { timeout: 30000 });
  await page.waitForTimeout(2500); // past the held answer, before the shown agent's own 5 s refresh
  seen.raceTitle = await page.textContent('#agent-title');
  seen.raceSlowAgent = slow;
  await page.waitForTimeout(6000); // the first agent's view, left, is never refreshed again
  seen.slowReads = slowReads;
  await page.unroute(slowReputation);
  seen.consoleErrors = consoleErrors;
  seen.tokenInAnyUrl = requested.some(u => u.includes(operatorToken));
} catch (e) {
  seen.failure = String(e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
