// Proofline dashboard: plain JavaScript, no framework, no CDN.
// Every receipt shown is checked here, in the browser, against the agent-card's published keys:
// the signed message is the RFC 8785 (JCS) form of {context, algorithm, key_version, attested_at,
// response} (docs/signing.md), verified with WebCrypto's Ed25519.
'use strict';

const VERIFY_CONTEXT = 'json-schema-verifier/verify-schema-attestation/v1';
const FEED_KEEP = 50;

// ---- canonical JSON (RFC 8785) ---------------------------------------------------------------
// JSON.stringify already prints numbers and strings exactly as JCS requires (JCS adopts
// ECMAScript's rules); what is left is sorting object keys by UTF-16 code units, which is
// JavaScript's default string order.
function canonicalJson(value) {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return '[' + value.map(canonicalJson).join(',') + ']';
  }
  return '{' + Object.keys(value).sort()
    .map(k => JSON.stringify(k) + ':' + canonicalJson(value[k])).join(',') + '}';
}

function base64Bytes(text) {
  return Uint8Array.from(atob(text), c => c.charCodeAt(0));
}

// ---- keys and signatures ---------------------------------------------------------------------
const keys = { byVersion: new Map(), available: false, problem: null };

async function loadKeys() {
  if (!window.isSecureContext || !window.crypto || !crypto.subtle) {
    keys.problem = 'signatures are checked only on https or localhost pages';
    return;
  }
  const card = await getJson('/.well-known/agent-card.json');
  const extension = card.capabilities.extensions.find(e => e.params && e.params.publicKeys);
  for (const k of extension.params.publicKeys) {
    if (k.algorithm !== 'Ed25519') continue;
    try {
      const key = await crypto.subtle.importKey('raw', base64Bytes(k.publicKey), { name: 'Ed25519' }, false, ['verify']);
      keys.byVersion.set(k.keyVersion, key);
    } catch (e) {
      keys.problem = 'this browser has no Ed25519 in WebCrypto';
      return;
    }
  }
  keys.available = true;
}

/** true when the receipt's signature holds, false when it does not, null when it cannot be checked. */
async function verifyReceipt(receipt, context = VERIFY_CONTEXT) {
  if (!keys.available) return null;
  const attestation = receipt && receipt.attestation;
  if (!attestation || attestation.algorithm !== 'Ed25519') return false;
  let key = keys.byVersion.get(attestation.key_version);
  if (!key) {
    await loadKeys(); // a key rotated since the page loaded
    key = keys.byVersion.get(attestation.key_version);
    if (!key) return false;
  }
  const response = Object.assign({}, receipt);
  delete response.attestation;
  const message = {
    context, algorithm: 'Ed25519', key_version: attestation.key_version,
    attested_at: attestation.timestamp, response,
  };
  try {
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, base64Bytes(attestation.signature),
      new TextEncoder().encode(canonicalJson(message)));
  } catch (e) {
    return false; // a signature that is not even 64 bytes of base64
  }
}

// ---- small DOM helpers -----------------------------------------------------------------------
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    // Styles through the CSSOM: the page's Content-Security-Policy refuses style attributes.
    if (name === 'class') node.className = value;
    else if (name === 'style') Object.assign(node.style, value);
    else node.setAttribute(name, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(child == null ? '' : String(child)));
  }
  return node;
}

// ---- operator token --------------------------------------------------------------------------
// Receipts and the live feed are for operators (docs/access.md). The token is kept in this tab's
// session storage and sent in the Authorization header only: never in a URL, where logs keep it.
const TOKEN_KEY = 'proofline.operatorToken';
const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: value => sessionStorage.setItem(TOKEN_KEY, value),
  forget: () => sessionStorage.removeItem(TOKEN_KEY),
};

function headers(extra = {}) {
  const value = token.get();
  return value ? { ...extra, Authorization: 'Bearer ' + value } : extra;
}

async function getJson(path) {
  const response = await fetch(path, { headers: headers({ Accept: 'application/json' }) });
  if (response.status === 401 && token.get()) {
    token.forget(); // revoked or mistyped: back to the public view
    showTokenState('the token was refused');
  }
  if (!response.ok) throw new Error(path + ' answered ' + response.status);
  return response.json();
}

function showTokenState(problem) {
  const has = !!token.get();
  document.getElementById('token-form').hidden = has;
  document.getElementById('token-status').hidden = !has;
  document.getElementById('feed').hidden = !has;
  document.getElementById('receipts-locked').hidden = has;
  document.getElementById('agent-receipts').hidden = !has;
  const input = document.getElementById('token-input');
  input.placeholder = problem || 'operator token';
  if (!has) {
    document.querySelector('#agent-receipts tbody').replaceChildren();
    document.getElementById('feed-list').replaceChildren();
  }
}

function ago(iso) {
  if (!iso) return '';
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 60) return Math.round(seconds) + ' s ago';
  if (seconds < 3600) return Math.round(seconds / 60) + ' min ago';
  if (seconds < 86400) return Math.round(seconds / 3600) + ' h ago';
  return iso.slice(0, 10);
}

function percent(x) {
  return x == null ? '–' : (100 * x).toFixed(1) + '%';
}

function resultCell(result) {
  return el('td', { class: result === 'pass' ? 'pass' : 'fail' }, result || '');
}

function signatureCell(valid) {
  if (valid === true) return el('td', { class: 'signature verified' }, '✓ verified');
  if (valid === false) return el('td', { class: 'signature invalid' }, '✗ INVALID');
  return el('td', { class: 'signature unchecked', title: keys.problem || '' }, 'not checked');
}

// ---- leaderboard -----------------------------------------------------------------------------
async function showLeaderboard(current) {
  const board = await getJson('/agents?limit=200');
  if (!current()) return;
  const rows = board.agents.map((a, i) => el('tr', { 'data-agent': a.agent_id },
    el('td', { class: 'num' }, i + 1),
    el('td', {}, el('a', { href: '#/agent/' + encodeURIComponent(a.agent_id) }, a.agent_id)),
    el('td', { class: 'num' }, el('span', { class: 'bar', style: { width: Math.round(60 * a.trust_score) + 'px' } }),
      a.trust_score.toFixed(3)),
    el('td', { class: 'num' }, percent(a.pass_rate)),
    el('td', { class: 'num' }, a.passed),
    el('td', { class: 'num' }, a.failed),
    el('td', {}, ago(a.last_verified_at)),
    resultCell(a.last_result)));
  document.querySelector('#leaderboard tbody').replaceChildren(...rows);
  document.getElementById('leaderboard-meta').textContent = board.agent_count + ' agents from '
    + board.instances + (board.instances === 1 ? ' instance' : ' instances')
    + (board.complete ? '' : ' (an instance did not answer: the list may be incomplete)');
}

// ---- one agent -------------------------------------------------------------------------------
async function showAgent(agentId, current) {
  const path = encodeURIComponent(agentId);
  const [history, recent] = await Promise.all([getJson('/reputation/' + path),
    token.get() ? getJson('/agents/' + path + '/receipts') : Promise.resolve(null)]);
  if (!current()) return; // another view was opened while this one was read
  document.getElementById('agent-title').textContent = agentId;
  const card = (label, value) => el('div', { class: 'card' }, el('b', {}, value), label);
  document.getElementById('agent-summary').replaceChildren(
    // null (reason no_data) before the agent's first counted receipt, as /score says it.
    card('trust score', history.trust_score == null ? '–' : history.trust_score.toFixed(3)),
    card('decayed score (half-life ' + history.decay.half_life_days + ' d)',
      history.decayed_score == null ? '–' : history.decayed_score.toFixed(3)),
    ...Object.entries(history.windows).map(([name, w]) =>
      card((name === '1d' ? 'today (UTC)' : 'last ' + name) + ': passed / failed', w.passed + ' / ' + w.failed)),
    card('pass rate', percent(history.total ? history.passed / history.total : null)),
    card('passed', history.passed), card('failed', history.failed),
    card('last seen', ago(history.last_verified_at)));
  document.getElementById('agent-chart').replaceChildren(scoreChart(history.score_over_time));

  if (!recent) return; // the public view: no receipts
  const rows = [];
  for (const receipt of recent.receipts) {
    const valid = await verifyReceipt(receipt);
    rows.push(el('tr', { 'data-verification-id': receipt.verification_id },
      el('td', { title: 'verification id ' + receipt.verification_id }, receipt.verified_at),
      el('td', {}, receipt.task_id), resultCell(receipt.result),
      signatureCell(valid), el('td', {}, receipt.attestation ? receipt.attestation.key_version : ''),
      el('td', { class: 'summary' }, describe(receipt))));
  }
  if (!current()) return;
  if (recent.missing > 0) {
    rows.push(el('tr', {}, el('td', { colspan: 6, class: 'note' },
      recent.missing + ' older receipts are no longer on the receipts topic (retention)')));
  }
  document.querySelector('#agent-receipts tbody').replaceChildren(...rows);
}

/** One line on what a receipt found: its first error, or that every check passed. */
function describe(receipt) {
  if (receipt.result === 'pass') return 'all blocking checks passed';
  if (receipt.errors && receipt.errors.length) return receipt.errors[0];
  const blocking = receipt.summary && receipt.summary.blocking_checks;
  return blocking && blocking.length ? 'blocking: ' + blocking.join(', ') : '';
}

/**
 * The trust score after each point of the agent's timeline, as an SVG line (no chart library), and
 * the decayed score as a dashed red line.
 */
function scoreChart(points) {
  const ns = 'http://www.w3.org/2000/svg';
  const w = 640, h = 180, left = 36, right = 10, top = 10, bottom = 24;
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('width', '100%');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'trust score over time');
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text != null) node.textContent = text;
    svg.append(node);
  };
  const y = s => top + (1 - s) * (h - top - bottom);
  for (const s of [0, 0.5, 1]) {
    add('line', { x1: left, x2: w - right, y1: y(s), y2: y(s), stroke: '#dde2e7' });
    add('text', { x: 4, y: y(s) + 4 }, s.toFixed(1));
  }
  if (!points || points.length === 0) return svg;
  const times = points.map(p => Date.parse(p.at));
  const t0 = times[0], t1 = times[times.length - 1] > t0 ? times[times.length - 1] : t0 + 1;
  const x = t => left + (t - t0) / (t1 - t0) * (w - left - right);
  const coords = points.map((p, i) => `${x(times[i]).toFixed(1)},${y(p.trust_score).toFixed(1)}`);
  add('polyline', { points: coords.join(' '), fill: 'none', stroke: '#2457a6', 'stroke-width': 2 });
  // The decayed score (recent behaviour weighs more), where the points carry it.
  const decayed = points.map((p, i) => [times[i], p.decayed_score]).filter(([, s]) => s != null);
  if (decayed.length) {
    add('polyline', { points: decayed.map(([t, s]) => `${x(t).toFixed(1)},${y(s).toFixed(1)}`).join(' '),
      fill: 'none', stroke: '#c0392b', 'stroke-width': 1.5, 'stroke-dasharray': '4 3', class: 'decayed' });
  }
  points.forEach((p, i) => add('circle', { cx: x(times[i]), cy: y(p.trust_score), r: 2.5, fill: '#2457a6' },
    null));
  add('text', { x: left, y: h - 6 }, points[0].at.slice(0, 19).replace('T', ' '));
  add('text', { x: w - right, y: h - 6, 'text-anchor': 'end' }, points[points.length - 1].at.slice(0, 19).replace('T', ' '));
  return svg;
}

// ---- live feed -------------------------------------------------------------------------------
// A browser's EventSource cannot send an Authorization header, so the feed is read with fetch and its
// server-sent events are split here: frames end with a blank line; "event:" names, "data:" carries.
async function readEvents(response, onEvent) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) await onEvent(name, data.join('\n'));
    }
  }
}

let feedStop = null;

function startFeed() {
  const status = document.getElementById('feed-status');
  if (feedStop) feedStop.abort();
  if (!token.get()) {
    status.textContent = 'feed: operators only'; status.className = 'status';
    return;
  }
  const stop = new AbortController();
  feedStop = stop;
  const connect = async () => {
    while (!stop.signal.aborted && token.get()) {
      try {
        const response = await fetch('/feed/receipts',
          { headers: headers({ Accept: 'text/event-stream' }), signal: stop.signal, cache: 'no-store' });
        if (response.status === 401 || response.status === 403) {
          token.forget();
          showTokenState('the token was refused');
          status.textContent = 'feed: operators only'; status.className = 'status';
          return;
        }
        if (!response.ok) throw new Error('the feed answered ' + response.status);
        status.textContent = 'feed: live'; status.className = 'status ok';
        await readEvents(response, (name, data) => name === 'receipts' ? showBatch(JSON.parse(data)) : null);
      } catch (e) {
        if (stop.signal.aborted) return;
      }
      status.textContent = 'feed: reconnecting…'; status.className = 'status bad';
      await new Promise(resolve => setTimeout(resolve, 2000));
    }
  };
  connect();
}

const feedRate = { quiet: null, last: null };

async function showBatch(batch) {
  const list = document.getElementById('feed-list');
  const rate = document.getElementById('feed-rate');
  document.getElementById('feed-empty').hidden = true;
  // The server ticks twice a second; an event may also count ticks this tab was too busy to take.
  const now = performance.now();
  const seconds = feedRate.last === null ? 0.5 : Math.max(0.5, (now - feedRate.last) / 1000);
  feedRate.last = now;
  rate.textContent = Math.round(batch.count / seconds) + ' receipts/s';
  clearTimeout(feedRate.quiet);
  feedRate.quiet = setTimeout(() => { rate.textContent = ''; feedRate.last = null; }, 2000); // nothing landed
  for (const receipt of batch.receipts) {
    const valid = await verifyReceipt(receipt);
    const mark = valid === true ? el('span', { class: 'verified', title: 'signature verified' }, '✓ ')
      : valid === false ? el('span', { class: 'invalid', title: 'signature INVALID' }, '✗ ') : '';
    list.prepend(el('li', { 'data-verification-id': receipt.verification_id }, mark,
      el('span', { class: receipt.result }, receipt.result), ' ',
      receipt.agent_id ? el('a', { href: '#/agent/' + encodeURIComponent(receipt.agent_id) }, receipt.agent_id) : receipt.task_id,
      el('span', { class: 'when' }, receipt.verified_at)));
  }
  while (list.children.length > FEED_KEEP) list.lastElementChild.remove();
}

// ---- routing ---------------------------------------------------------------------------------
let refresh = null;
// Which view is current: a view's reads may end after another view was opened, and must not draw.
let viewNumber = 0;
let shownAgent = null;

// The agent a hash names, or null: a malformed escape (#/agent/%E0) names none, so the
// leaderboard shows rather than a page that stopped refreshing.
function agentInHash() {
  const match = location.hash.match(/^#\/agent\/(.+)$/);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch (e) {
    return null;
  }
}

async function route() {
  clearTimeout(refresh);
  const mine = ++viewNumber;
  const current = () => mine === viewNumber;
  const agent = agentInHash();
  document.getElementById('leaderboard-view').hidden = agent !== null;
  document.getElementById('agent-view').hidden = agent === null;
  if (agent !== shownAgent) {
    // Another agent's figures and receipts never stand under this one's name, even if its reads fail.
    document.getElementById('agent-title').textContent = '';
    document.getElementById('agent-summary').replaceChildren();
    document.getElementById('agent-chart').replaceChildren();
    document.querySelector('#agent-receipts tbody').replaceChildren();
    shownAgent = agent;
  }
  const show = agent !== null ? () => showAgent(agent, current) : () => showLeaderboard(current);
  // The next refresh is timed from the end of this one, so two never overlap and an older one
  // never draws over a newer one; a later route() ends the chain.
  const refreshed = async () => {
    await show().catch(e => console.warn('dashboard refresh failed:', e.message));
    if (current()) refresh = setTimeout(refreshed, agent !== null ? 5000 : 3000);
  };
  await refreshed();
}

async function start() {
  const status = document.getElementById('keys-status');
  try {
    await loadKeys();
  } catch (e) {
    keys.problem = 'the agent-card could not be read';
  }
  status.textContent = keys.available ? 'signatures checked with ' + keys.byVersion.size + ' published key(s)' : keys.problem;
  status.className = 'status ' + (keys.available ? 'ok' : 'bad');
  window.addEventListener('hashchange', route);
  document.getElementById('token-form').addEventListener('submit', event => {
    event.preventDefault(); // nothing is submitted anywhere: the token stays in this tab
    const input = document.getElementById('token-input');
    if (input.value.trim()) token.set(input.value.trim());
    input.value = '';
    showTokenState();
    startFeed();
    route();
  });
  document.getElementById('token-forget').addEventListener('click', () => {
    token.forget();
    showTokenState();
    startFeed();
    route();
  });
  showTokenState();
  startFeed();
  await route();
  document.body.dataset.ready = 'true';
}

// For tests and curious people: the checks this page runs, callable from the console.
window.proofline = { canonicalJson, verifyReceipt };
start();
