// The page's side of a browser session: an xterm.js terminal on one WebSocket.
// To the server: text frames ["stdin", text] and ["resize", {width, height}]
// (textual-serve's envelope). From the server: binary frames of terminal
// output (UTF-8), and a text frame ["notice", text, outcome] that says how a code
// went ("claimed", "refused", or "kept": not used, try again). The identity stays in an HttpOnly cookie that this
// script cannot read; a code from another device travels once, in the
// WebSocket's subprotocol list, never in a URL.
"use strict";

(function () {
  const MIN_COLS = 80, MIN_ROWS = 24;
  const FONT_MAX = 15, FONT_MIN = 6;

  // The CSP allows inline <style> only with this page's nonce: xterm.js makes
  // its own style elements, so each one gets the nonce as it is created.
  const nonce = document.querySelector('meta[name="style-nonce"]').content;
  const createElement = document.createElement.bind(document);
  document.createElement = function (tag, options) {
    const element = createElement(tag, options);
    if (String(tag).toLowerCase() === "style") element.nonce = nonce;
    return element;
  };

  // xterm.js's own palette (Tango's) and its bold drawn in bright colours drew the
  // lobby's bold cursor row grey (#555753) on light grey (#d3d7cf), and white on a light
  // bright blue (2.7:1) in the list's header and a focused entry (play-test 2026-12-05).
  // Textual names the bright colours it wants; black and white are xterm's, and the
  // bright blue reads both as text on black and under white text (4.5:1 each).
  const THEME = { black: "#000000", white: "#e5e5e5", brightBlue: "#4272d0" };
  const term = new Terminal({
    fontFamily: "DejaVu Sans Mono, Menlo, Consolas, monospace",
    fontSize: FONT_MAX,
    scrollback: 0,
    cursorBlink: false,
    allowProposedApi: false,
    theme: THEME,
    drawBoldTextInBrightColors: false,
  });
  const fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  const box = document.getElementById("terminal");
  term.open(box);

  // Keep the keys the game uses from the browser (F1 opens help in some).
  term.attachCustomKeyEventHandler(function (event) {
    if (/^F\d+$/.test(event.key)) event.preventDefault();
    return true;
  });

  let ws = null;
  let open = false;
  // A claim code not settled yet: it stays in its box, and a reconnect sends it again,
  // until the server's notice says it was claimed (or can never work).
  let pendingCode = null;
  const claimInput = document.getElementById("claim-code");
  const claimStatus = document.getElementById("claim-status");

  function send(message) {
    if (open) ws.send(JSON.stringify(message));
  }

  // Fit: the most cells the window holds at the normal font; below 80×24 the
  // font shrinks first, and only at the smallest font the page scrolls.
  function size() {
    let font = FONT_MAX;
    term.options.fontSize = font;
    let dims = fit.proposeDimensions();
    while (dims && (dims.cols < MIN_COLS || dims.rows < MIN_ROWS) && font > FONT_MIN) {
      font -= 1;
      term.options.fontSize = font;
      dims = fit.proposeDimensions();
    }
    if (!dims) return;
    const cols = Math.max(MIN_COLS, dims.cols), rows = Math.max(MIN_ROWS, dims.rows);
    if (cols !== term.cols || rows !== term.rows) term.resize(cols, rows);
    fits += 1;  // what the last fit chose, for the tests: "fits cols rows font" and the
    // window it fitted (a browser may fire resize before its window has its new size)
    document.body.dataset.fit = [fits, cols, rows, font, innerWidth, innerHeight].join(" ");
  }
  let fits = 0;
  let pending = null;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(size, 60);
  });
  term.onResize(function (d) { send(["resize", { width: d.cols, height: d.rows }]); });
  // A long paste goes in frames of at most STDIN_CHUNK characters (the server takes
  // frames of 64 KiB; a control character is 6 bytes of JSON), never between the two
  // halves of a surrogate pair (an emoji).
  const STDIN_CHUNK = 8192;
  function sendKeys(data) {
    for (let start = 0; start < data.length;) {
      let end = Math.min(start + STDIN_CHUNK, data.length);
      const last = data.charCodeAt(end - 1);
      if (end < data.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
      send(["stdin", data.slice(start, end)]);
      start = end;
    }
  }
  term.onData(function (data) {
    if (open) sendKeys(data);
    else if (ws === null) connect(pendingCode);
  });

  function connect(code) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const protocols = ["modernart.v1"];
    if (code) protocols.push("claim." + code);
    const url = scheme + "//" + location.host + "/ws?cols=" + term.cols + "&rows=" + term.rows;
    let noticed = false;  // the server said how the code went
    if (code) claimStatus.textContent = "";
    ws = new WebSocket(url, protocols);
    ws.binaryType = "arraybuffer";
    ws.onopen = function () { open = true; document.body.dataset.state = "open"; };
    ws.onmessage = function (event) {
      if (typeof event.data !== "string") {
        term.write(new Uint8Array(event.data));
        return;
      }
      const message = JSON.parse(event.data);  // ["notice", text, outcome]: how a code went
      if (message[0] !== "notice") return;
      noticed = true;
      claimStatus.textContent = message[1];
      if (message[2] === "claimed") claimInput.value = "";
      if (message[2] !== "kept") pendingCode = null;  // claimed, or it will never work
    };
    ws.onclose = function (event) {
      open = false;
      ws = null;
      document.body.dataset.state = "closed";
      const why = event.reason ? " (" + event.reason + ")" : "";
      if (pendingCode && !noticed) {  // refused before the server said
        claimStatus.textContent = "Not claimed" + (event.reason ? ": " + event.reason : ".") +
          " Your code is kept: press a key to try again.";
      }
      // In the screen the session left, under its last words.
      term.write("\x1b[0m\x1b[?25h\r\nDisconnected" + why + ". Press any key to connect again.");
    };
  }

  document.getElementById("claim").addEventListener("submit", function (event) {
    event.preventDefault();
    const code = claimInput.value.toUpperCase().replace(/[^0-9A-Z]/g, "");
    if (!code) return;
    pendingCode = code;  // the box keeps it until the server says it worked
    if (ws !== null) {
      ws.onclose = null;  // no "Disconnected" notice: we connect again at once
      ws.close();
      ws = null;
      open = false;
    }
    term.reset();
    connect(code);
    term.focus();
  });

  // "Your finished games": the records of this browser's identity's games that are
  // over, from /records (the cookie says who); each downloads as a JSON file. Asked
  // again each time the list opens, and every RECORDS_EVERY ms while it is open and the
  // tab is seen, so a game that ends meanwhile shows up (the page does not know when).
  const RECORDS_EVERY = 10000;
  const recordsBox = document.getElementById("records");
  const recordsButton = document.getElementById("records-button");
  const recordsList = document.getElementById("records-list");
  const recordsStatus = document.getElementById("records-status");
  let recordsShown = null;  // the last answer shown (JSON): redrawn only when it changes
  let recordsTimer = null;
  function two(n) { return String(n).padStart(2, "0"); }
  // When a game finished, in this browser's time zone: 2026-12-03 18:57 (ISO's order).
  function finishedAt(seconds) {
    const d = new Date(seconds * 1000);
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + " " +
      two(d.getHours()) + ":" + two(d.getMinutes());
  }
  function showRecords(games) {
    const answer = JSON.stringify(games);
    if (answer === recordsShown) return;
    recordsShown = answer;
    recordsList.replaceChildren();
    for (const game of games) {
      const link = document.createElement("a");
      link.href = game.url;
      link.download = game.game + "-" + game.room + ".json";
      link.textContent = game.title + ", " + finishedAt(game.finished) + " (" + game.room + ")" +
        (game.outcome === "abandoned" ? ", abandoned" : "");
      const item = document.createElement("li");
      item.appendChild(link);
      recordsList.appendChild(item);
    }
    recordsStatus.textContent = games.length
      ? "Download a game's record (JSON, for modernart view FILE):"
      : "No finished games yet: a game's record is here once the game is over.";
    size();
  }
  function loadRecords() {
    if (recordsBox.hidden || document.hidden) return;
    fetch("/records", { credentials: "same-origin", cache: "no-store" })
      .then(function (answer) {
        if (!answer.ok) throw new Error(answer.status);
        return answer.json();
      })
      .then(function (body) { if (!recordsBox.hidden) showRecords(body.games); })
      .catch(function () {
        recordsShown = null;
        recordsStatus.textContent = "Your games could not be loaded: connect first, then try again.";
      });
  }
  recordsButton.addEventListener("click", function () {
    const opening = recordsBox.hidden;
    recordsBox.hidden = !opening;
    recordsButton.setAttribute("aria-expanded", String(opening));
    clearInterval(recordsTimer);
    if (opening) {
      recordsShown = null;
      recordsList.replaceChildren();
      recordsStatus.textContent = "Loading…";
      loadRecords();
      recordsTimer = setInterval(loadRecords, RECORDS_EVERY);
    }
    size();
    term.focus();
  });
  document.addEventListener("visibilitychange", loadRecords);
  // A download link keeps the focus once clicked: the keys go back to the game.
  recordsList.addEventListener("click", function (event) {
    if (event.target.closest("a")) setTimeout(function () { term.focus(); }, 0);
  });

  size();
  term.focus();
  connect(null);
})();
