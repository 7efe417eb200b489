import Connector

/// The station's page: its HTML, style and script, served from the binary (no file, no CDN).
/// Texts come from `StationMessages`; test hooks are `data-emrtd` attributes (README).
enum StationPage {
    static let socketPath = "/ws"
    static let protocolName = "emrtd-station"

    static let files: [String: HTTPPage] = [
        "/": HTTPPage(contentType: "text/html; charset=utf-8", body: Array(html.utf8)),
        "/station.css": HTTPPage(contentType: "text/css; charset=utf-8", body: Array(css.utf8)),
        "/station.js": HTTPPage(contentType: "text/javascript; charset=utf-8", body: Array(script.utf8)),
        "/messages.json": HTTPPage(
            contentType: "application/json; charset=utf-8", body: Array(StationMessages.english.utf8)),
    ]

    static let html = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title data-text="title">emrtd</title>
        <link rel="stylesheet" href="/station.css">
        <script src="/station.js" defer></script>
        </head>
        <body>
        <main>
        <p class="error" data-emrtd="error" role="alert" hidden></p>
        <section id="waiting" aria-labelledby="waiting-heading">
          <h1 id="waiting-heading" data-text="waitingHeading"></h1>
          <p data-emrtd="card" aria-live="polite"></p>
          <p data-emrtd="reader"></p>
          <label for="mrz" data-text="mrzLabel"></label>
          <textarea id="mrz" data-emrtd="mrz-input" rows="3" cols="44" spellcheck="false" autocomplete="off" autofocus></textarea>
          <p data-emrtd="mrz-check" aria-live="polite"></p>
          <label for="can" data-text="canLabel"></label>
          <input id="can" data-emrtd="can-input" inputmode="numeric" autocomplete="off" maxlength="6" size="8">
          <p><button type="button" data-emrtd="start" data-text="start" disabled></button></p>
        </section>
        <section id="reading" hidden aria-labelledby="reading-heading">
          <h1 id="reading-heading" data-text="readingHeading"></h1>
          <p data-text="keepStill"></p>
          <div class="bar"><div data-emrtd="progress" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"></div></div>
          <p data-emrtd="step" aria-live="polite"></p>
          <p><button type="button" data-emrtd="cancel" data-text="cancel"></button></p>
        </section>
        <section id="answer" hidden>
          <div data-emrtd="answer" data-accepted="false" tabindex="-1">
            <p class="word" data-emrtd="answer-word"></p>
            <ul data-emrtd="reasons"></ul>
          </div>
          <div class="holder">
            <img data-emrtd="face" alt="">
            <table>
              <tr><th data-text="name"></th><td data-emrtd="holder-name"></td></tr>
              <tr><th data-text="nationality"></th><td data-emrtd="nationality"></td></tr>
              <tr><th data-text="dateOfBirth"></th><td data-emrtd="date-of-birth"></td></tr>
              <tr><th data-text="dateOfExpiry"></th><td data-emrtd="date-of-expiry"></td></tr>
              <tr><th data-text="documentNumber"></th><td data-emrtd="document-number"></td></tr>
              <tr><th data-text="issuingState"></th><td data-emrtd="issuing-state"></td></tr>
              <tr><th data-text="dataVerdict"></th><td data-emrtd="data-verdict"></td></tr>
              <tr><th data-text="chipVerdict"></th><td data-emrtd="chip-verdict"></td></tr>
            </table>
          </div>
          <h2 data-text="warnings"></h2>
          <ul data-emrtd="warnings"></ul>
          <p data-emrtd="saved"></p>
          <p><button type="button" data-emrtd="print" data-text="print"></button>
             <button type="button" data-emrtd="next" data-text="next"></button></p>
        </section>
        </main>
        </body>
        </html>
        """#

    static let css = #"""
        html{font:24px/1.45 system-ui,sans-serif;background:#000;color:#fff}
        main{max-width:60em;margin:0 auto;padding:1em}
        h1{font-size:2em;margin:.3em 0}h2{font-size:1.3em}
        label{display:block;margin-top:1em;font-weight:bold}
        textarea,input{font:1.1em/1.3 monospace;background:#fff;color:#000;border:3px solid #fff;padding:.3em;text-transform:uppercase;max-width:100%}
        button{font:inherit;font-weight:bold;padding:.4em 1.2em;background:#ffd400;color:#000;border:3px solid #fff;border-radius:.3em;cursor:pointer}
        button:disabled{background:#555;color:#ddd;cursor:not-allowed}
        :focus-visible{outline:5px solid #00e5ff;outline-offset:3px}
        .error{background:#b00020;color:#fff;padding:.6em;font-weight:bold;border:3px solid #fff}
        .bar{border:3px solid #fff;height:1.6em}.bar>div{height:100%;background:#00e5ff;width:0}
        [data-emrtd=answer]{padding:.5em 1em;border:4px solid #fff;margin-bottom:1em}
        [data-emrtd=answer][data-accepted=true]{background:#006b2e}[data-emrtd=answer][data-accepted=false]{background:#b00020}
        .word{font-size:2.4em;font-weight:bold;margin:0}
        .holder{display:flex;gap:1em;align-items:flex-start}.holder img{width:8em;border:3px solid #fff;background:#333}
        th{text-align:left;padding-right:1em}
        .problem{color:#ff8a80;font-weight:bold}.fine{color:#b9f6ca}
        @media print{html{background:#fff;color:#000}button,textarea,input{display:none}}
        """#

    static let script = #"""
        'use strict';
        (function () {
          let text = {};
          let socket = null;
          let screen = 'waiting';
          let checkedLines = null;
          let report = null;
          const hook = (name) => document.querySelector('[data-emrtd="' + name + '"]');
          const token = new URLSearchParams(location.hash.slice(1)).get('token');

          function show(name) {
            screen = name;
            for (const id of ['waiting', 'reading', 'answer']) document.getElementById(id).hidden = id !== name;
          }
          function say(key) {
            const error = hook('error');
            error.textContent = key ? (text.errors[key] || key) : '';
            error.hidden = !key;
          }
          function send(message) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(message)); }
          function clear(element) { while (element.firstChild) element.removeChild(element.firstChild); }
          function items(list, values, className) {
            clear(list);
            for (const value of values) {
              const item = document.createElement('li');
              item.textContent = value;
              if (className) item.setAttribute('data-emrtd', className);
              list.appendChild(item);
            }
          }

          function keyMessage(type) {
            const can = hook('can-input').value.trim();
            if (can) return { type: type, can: can };
            const lines = hook('mrz-input').value.split(/\r?\n/).map((line) => line.trim()).filter((line) => line);
            return { type: type, lines: type === 'start' && checkedLines ? checkedLines : lines };
          }
          function inputChanged() {
            checkedLines = null;
            hook('start').disabled = true;
            const message = keyMessage('check');
            if (!message.can && message.lines.length === 0) { hook('mrz-check').textContent = ''; return; }
            send(message);
          }
          function checked(message) {
            const line = hook('mrz-check');
            const parts = [];
            const changes = message.corrections ? message.corrections.changes : [];
            if (changes.length) {
              parts.push(text.checkCorrected + changes.map((c) => c.from + '→' + c.to + ' (' + (c.line + 1) + ':' + (c.column + 1) + ')').join(', '));
            }
            parts.push(message.ok ? text.checkOk : message.problems.join('; ') + '.');
            if (message.corrections && message.corrections.ambiguousFields.length) {
              parts.push(text.checkAmbiguous + message.corrections.ambiguousFields.map((field) => text.fieldNames[field] || field).join(', ') + '.');
            }
            line.textContent = parts.join(' ');
            line.className = message.ok ? 'fine' : 'problem';
            checkedLines = message.ok && message.lines ? message.lines : null;
            hook('start').disabled = !message.ok;
          }
          function progress(message) {
            const bar = hook('progress');
            bar.style.width = message.percent + '%';
            bar.setAttribute('aria-valuenow', String(message.percent));
            let step = text[message.step] || '';
            if (message.file) step += (text.fileNames[message.file] || message.file);
            hook('step').textContent = step;
          }
          function answer(message) {
            const box = hook('answer');
            box.setAttribute('data-accepted', message.accepted ? 'true' : 'false');
            hook('answer-word').textContent = message.accepted ? text.accepted : text.notAccepted;
            items(hook('reasons'), message.reasons, 'reason');
            const holder = message.holder || {};
            const fields = { 'holder-name': holder.name, 'nationality': holder.nationality, 'date-of-birth': holder.dateOfBirth,
              'date-of-expiry': holder.dateOfExpiry, 'document-number': holder.documentNumber, 'issuing-state': holder.issuingState,
              'data-verdict': message.data, 'chip-verdict': message.chip + (message.chipReason ? ' (' + message.chipReason + ')' : '') };
            for (const name in fields) hook(name).textContent = fields[name] || '';
            const face = hook('face');
            if (message.face) { face.src = message.face; face.alt = holder.name || ''; } else { face.removeAttribute('src'); face.alt = text.noFace; }
            items(hook('warnings'), message.warnings, 'warning');
            if (message.warnings.length === 0) items(hook('warnings'), [text.noWarnings]);
            hook('saved').textContent = message.saved ? text.saved + message.saved : '';
            report = message.report;
            hook('print').disabled = !report;
            show('answer');
            box.focus();
          }
          function next() {
            report = null;
            for (const name of ['holder-name', 'nationality', 'date-of-birth', 'date-of-expiry', 'document-number',
              'issuing-state', 'data-verdict', 'chip-verdict', 'answer-word', 'saved', 'mrz-check', 'step']) hook(name).textContent = '';
            for (const name of ['reasons', 'warnings']) clear(hook(name));
            hook('face').removeAttribute('src');
            hook('mrz-input').value = '';
            hook('can-input').value = '';
            checkedLines = null;
            hook('start').disabled = true;
            hook('progress').style.width = '0';
            hook('progress').setAttribute('aria-valuenow', '0');
            say(null);
            show('waiting');
            send({ type: 'next' });
            hook('mrz-input').focus();
          }
          function failed(key) {
            show('waiting');
            say(key);
            hook('start').disabled = !checkedLines && !hook('can-input').value.trim();
            hook('mrz-input').focus();
          }
          function receive(message) {
            switch (message.type) {
              case 'ready':
                hook('reader').textContent = message.reader ? text.readerNamed + message.reader : text.readerAny;
                if (hook('error').textContent === text.errors.disconnected) say(null);
                break;
              case 'card':
                hook('card').textContent = message.present ? text.cardPresent : text.cardAbsent;
                hook('card').setAttribute('data-present', message.present ? 'true' : 'false');
                if (!message.present && screen === 'answer') next();
                break;
              case 'checked': checked(message); break;
              case 'reading': say(null); show('reading'); hook('cancel').focus(); break;
              case 'progress': progress(message); break;
              case 'answer': answer(message); break;
              case 'error': failed(message.key); break;
            }
          }
          function connect() {
            const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
            socket = new WebSocket(scheme + location.host + '/ws', 'emrtd-station');
            socket.onopen = () => send({ type: 'hello', token: token });
            socket.onmessage = (event) => receive(JSON.parse(event.data));
            socket.onclose = (event) => {
              if (event.code === 4002) { say('denied'); return; }
              say('disconnected');
              if (screen === 'reading') show('waiting');
              setTimeout(connect, 1000);
            };
          }
          function start() {
            say(null);
            send(keyMessage('start'));
          }
          function print() {
            if (!report) return;
            const frame = document.createElement('iframe');
            frame.style.display = 'none';
            frame.srcdoc = report;
            frame.onload = () => { frame.contentWindow.print(); setTimeout(() => frame.remove(), 60000); };
            document.body.appendChild(frame);
          }

          document.addEventListener('DOMContentLoaded', () => {
            fetch('/messages.json').then((response) => response.json()).then((messages) => {
              text = messages;
              for (const element of document.querySelectorAll('[data-text]')) element.textContent = text[element.getAttribute('data-text')];
              hook('card').textContent = text.cardAbsent;
              hook('mrz-input').addEventListener('input', inputChanged);
              hook('can-input').addEventListener('input', inputChanged);
              hook('mrz-input').addEventListener('keydown', (event) => {
                if (event.key === 'Enter' && event.ctrlKey && !hook('start').disabled) start();
              });
              hook('start').addEventListener('click', start);
              hook('cancel').addEventListener('click', () => send({ type: 'cancel' }));
              hook('next').addEventListener('click', next);
              hook('print').addEventListener('click', print);
              connect();
            });
          });
        })();
        """#
}
