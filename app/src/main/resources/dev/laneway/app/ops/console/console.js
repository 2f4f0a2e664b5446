// The Laneway operator console (docs/behaviour.md §18): reads GET /events (server-sent events, read
// with fetch so the admin token can go in a header) and draws what it says; admin actions are POSTs
// with the token. Text goes into the page with textContent only, never as HTML.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const ROWS = 100;
  const CHART = 300;
  const state = { token: sessionStorage.getItem('laneway.adminToken') || '', showText: false, seen: 0, ctrl: null, chart: [] };

  function cell(text, cls) {
    const td = document.createElement('td');
    td.textContent = text === null || text === undefined ? '–' : String(text);
    if (cls) td.className = cls;
    return td;
  }

  // Rebuilds a table only when what it shows changed, so a button is not replaced under the pointer.
  function fill(tableId, data, toRows, empty) {
    const body = $(tableId).tBodies[0];
    const key = JSON.stringify(data);
    if (body.dataset.key === key) return;
    body.dataset.key = key;
    const rows = toRows(data);
    if (rows.length === 0 && empty) {
      const td = cell(empty, 'empty');
      td.colSpan = $(tableId).tHead.rows[0].cells.length;
      rows.push(row(td));
    }
    body.replaceChildren(...rows);
  }

  function row(...cells) {
    const tr = document.createElement('tr');
    tr.append(...cells);
    return tr;
  }

  function button(label, action, params) {
    const td = document.createElement('td');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.dataset.action = action;
    b.dataset.params = new URLSearchParams(params).toString();
    td.append(b);
    return td;
  }

  function time(iso) {
    return iso ? new Date(iso).toLocaleTimeString() : null;
  }

  function notice(text, ok) {
    const n = $('notice');
    n.textContent = text;
    n.className = ok ? 'ok' : 'bad';
  }

  function setConn(text, cls) {
    const c = $('conn');
    c.textContent = text;
    c.className = 'conn ' + (cls || '');
  }

  function draw(svgId, series, classes) {
    const svg = $(svgId);
    const max = Math.max(1, ...series.flat());
    const n = series[0].length;
    const lines = series.map((values, s) => {
      const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
      line.setAttribute('class', classes[s]);
      line.setAttribute('points', values.map((v, i) => (300 - (n - 1 - i)) + ',' + (58 - 56 * v / max).toFixed(1)).join(' '));
      return line;
    });
    svg.replaceChildren(...lines);
    return max;
  }

  function snapshot(v) {
    $('stat-busy').textContent = v.busySessions;
    $('stat-pending').textContent = v.pendingMessages;
    $('stat-main').textContent = v.scheduler.running + ' / ' + v.scheduler.waiting;

    $('stat-channels').textContent = Object.entries(v.channels).map(([name, up]) => name + (up ? ' ✓' : ' ✗')).join(' ') || '–';
    fill('lanes', v.lanes, (lanes) => lanes.map((l) => row(cell(l.name), cell(l.cap, 'num'), cell(l.active, 'num'), cell(l.queued, 'num'))));
    fill('classes', v.scheduler.classes, (classes) => Object.entries(classes).map(([name, load]) =>
      row(cell(name), cell(load.running, 'num'), cell(load.waiting, 'num'))));
    fill('providers', v.providers, (providers) => providers.map((p) => row(cell(p.name), cell(p.limit || 'none', 'num'), cell(p.running, 'num'),
      cell(p.waiting, 'num'), cell(p.rateLimited, 'num'), cell(p.circuit, p.circuit === 'closed' ? '' : 'circuit-open'))),
      'no provider pools (only openai agents have them)');
    const waited = (c) => (c.oldestWaitSeconds === null ? '–' : c.oldestWaitSeconds + ' s');
    // the waits tick every second: they are updated in place, the rows (and their buttons) stay
    fill('conversations', v.conversations.map((c) => ({ ...c, oldestWaitSeconds: c.oldestWaitSeconds === null })),
      () => v.conversations.map((c) => {
      const tr = row(cell(c.session), cell(c.state), cell(c.queued, 'num'), cell(c.mode), cell(waited(c), 'num'));
      const actions = button('Stop', 'conversations/stop', { session: c.session });
      const clear = button('Clear queue', 'conversations/clear', { session: c.session });
      actions.append(...clear.childNodes);
      tr.append(actions);
      tr.dataset.session = c.session;
      return tr;
    }), 'no busy conversation');
    const conversationRows = $('conversations').tBodies[0].rows;
    v.conversations.forEach((c, i) => { conversationRows[i].cells[4].textContent = waited(c); });
    fill('jobs', v.jobs, (jobs) => jobs.map((j) => {
      const tr = row(cell(j.id), cell(j.target), cell(j.schedule), cell(j.paused ? 'paused' : time(j.nextFire), j.paused ? 'paused' : ''),
        cell(time(j.lastFire)), cell(j.skippedBusy, 'num'),
        j.paused ? button('Resume', 'jobs/resume', { id: j.id }) : button('Pause', 'jobs/pause', { id: j.id }));
      tr.dataset.job = j.id;
      return tr;
    }), 'no scheduled jobs');
    // the first snapshot carries every point kept, the later ones the last few: merged by time
    const last = state.chart.length ? state.chart[state.chart.length - 1].at : 0;
    state.chart.push(...v.chart.filter((p) => p.at > last));
    if (state.chart.length > CHART) state.chart.splice(0, state.chart.length - CHART);
    const points = state.chart;
    if (points.length > 0) {
      $('peak-throughput').textContent = draw('chart-throughput',
        [points.map((p) => p.messages), points.map((p) => p.runs)], ['s1', 's2']);
      $('peak-wait').textContent = Math.round(draw('chart-wait', [points.map((p) => p.queueWaitMs)], ['s3']));
    }
    $('stat-ended').textContent = points.reduce((sum, p) => sum + p.messages, 0);
  }

  function disposition(d) {
    const body = $('dispositions').tBodies[0];
    const shown = d.text !== null && d.text !== undefined;
    const tr = row(cell(new Date(d.at).toLocaleTimeString()), cell(d.channel), cell(d.chat), cell(d.sender),
      cell(d.disposition), cell(shown ? d.text : 'hidden', shown ? '' : 'hidden-text'));
    tr.dataset.seq = d.seq;
    tr.dataset.latencyMs = Math.max(0, Date.now() - d.at);
    body.prepend(tr);
    while (body.rows.length > ROWS) body.deleteRow(body.rows.length - 1);
    state.seen += 1;
    $('stat-dispositions').textContent = state.seen;
  }

  function onEvent(block) {
    let name = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length === 0) return;
    const value = JSON.parse(data.join('\n'));
    if (name === 'snapshot') snapshot(value);
    else if (name === 'disposition') disposition(value);
  }

  function headers() {
    return state.token ? { Authorization: 'Bearer ' + state.token } : {};
  }

  async function read(ctrl) {
    const response = await fetch(state.showText ? '/events?text=1' : '/events',
      { headers: headers(), signal: ctrl.signal, cache: 'no-store' });
    if (!response.ok) {
      const body = await response.json().catch(() => ({ error: response.statusText }));
      state.showText = false;
      $('show-text').checked = false;
      notice('Message text refused: ' + body.error, false);
      throw new Error('refused');
    }
    setConn('live', 'live');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        onEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  }

  function connect() {
    if (state.ctrl) state.ctrl.abort();
    const ctrl = new AbortController();
    state.ctrl = ctrl;
    $('dispositions').tBodies[0].replaceChildren();
    state.chart = []; // the first snapshot of the new stream brings them all again
    read(ctrl).catch(() => undefined).finally(() => {
      if (ctrl.signal.aborted) return;
      setConn('reconnecting…', 'down');
      setTimeout(() => { if (state.ctrl === ctrl) connect(); }, 2000);
    });
  }

  async function act(action, params) {
    try {
      const response = await fetch('/admin/' + action + '?' + params, { method: 'POST', headers: headers() });
      const body = await response.json();
      if (response.ok) {
        notice(body.action === 'stop' || body.action === 'clear'
          ? 'Done: ' + body.action + ' ' + body.session + ' (' + body.cleared + ' queued message(s) cleared).'
          : 'Done: ' + body.action + ' job ' + body.job + (body.changed ? '.' : ' (it already was).'), true);
      } else {
        notice('Refused: ' + body.error, false);
      }
    } catch (e) {
      notice('The gateway did not answer: ' + e.message, false);
    }
  }

  function useToken(token) {
    state.token = token;
    if (token) sessionStorage.setItem('laneway.adminToken', token);
    else sessionStorage.removeItem('laneway.adminToken');
    $('show-text').disabled = !token;
    if (!token && state.showText) {
      state.showText = false;
      $('show-text').checked = false;
      connect();
    }
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('token-form').addEventListener('submit', (e) => {
      e.preventDefault();
      useToken($('token').value.trim());
      $('token').value = '';
      notice(state.token ? 'Token set for this tab: admin actions send it.' : 'No token: admin actions are refused.', !!state.token);
    });
    $('token-forget').addEventListener('click', () => { useToken(''); notice('Token forgotten.', true); });
    $('show-text').addEventListener('change', (e) => { state.showText = e.target.checked; connect(); });
    document.body.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-action]');
      if (b) act(b.dataset.action, b.dataset.params);
    });
    useToken(state.token);
    connect();
  });
})();
