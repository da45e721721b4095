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

  const term = new Terminal({
    fontFamily: "DejaVu Sans Mono, Menlo, Consolas, monospace",
    fontSize: FONT_MAX,
    scrollback: 0,
    cursorBlink: false,
    allowProposedApi: false,
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
  // over, from /records (the cookie says who); each downloads as a JSON file.
  const recordsBox = document.getElementById("records");
  const recordsButton = document.getElementById("records-button");
  function showRecords(games) {
    const list = document.getElementById("records-list");
    list.replaceChildren();
    for (const game of games) {
      const link = document.createElement("a");
      link.href = game.url;
      link.download = game.game + "-" + game.room + ".json";
      const when = new Date(game.finished * 1000).toLocaleString();
      link.textContent = game.title + ", " + when + " (" + game.room + ")" +
        (game.outcome === "abandoned" ? ", abandoned" : "");
      const item = document.createElement("li");
      item.appendChild(link);
      list.appendChild(item);
    }
    document.getElementById("records-status").textContent = games.length
      ? "Download a game's record (JSON, for modernart view FILE):"
      : "No finished games yet: a game's record is here once the game is over.";
  }
  recordsButton.addEventListener("click", function () {
    const opening = recordsBox.hidden;
    recordsBox.hidden = !opening;
    recordsButton.setAttribute("aria-expanded", String(opening));
    size();
    term.focus();
    if (!opening) return;
    document.getElementById("records-status").textContent = "Loading…";
    fetch("/records", { credentials: "same-origin", cache: "no-store" })
      .then(function (answer) {
        if (!answer.ok) throw new Error(answer.status);
        return answer.json();
      })
      .then(function (body) { showRecords(body.games); size(); })
      .catch(function () {
        document.getElementById("records-status").textContent =
          "Your games could not be loaded: connect first, then try again.";
      });
  });

  size();
  term.focus();
  connect(null);
})();
